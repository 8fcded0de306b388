package io.jato.packaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files (README, docs/, module READMEs, the
 * changelog) points at a file or folder that exists and that git does not ignore (an ignored file
 * exists only on the machine that wrote it), and every {@code #anchor} names a heading, or an
 * {@code <a id>}, of the page it points into (anchors computed as GitHub computes them).
 */
class DocsLinksTest {
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[(?:[^\\[\\]]++|\\[[^\\]]*+\\])*+\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s|$)");
    private static final Pattern HEADING = Pattern.compile("(?m)^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void relativeLinksResolve() throws Exception {
        Path root = Build.root();
        List<String> broken = new ArrayList<>();
        Map<Path, String> targets = new LinkedHashMap<>();   // target file -> first link to it
        List<Path> pages = markdownFiles(root);
        assertTrue(pages.size() > 10, "found the docs: " + pages);
        for (Path page : pages) {
            String text = withoutCode(Files.readString(page));
            for (String link : links(text)) {
                if (link.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) {
                    continue;   // https:, mailto:, ...: not checked here
                }
                String where = root.relativize(page) + ": (" + link + ")";
                int hash = link.indexOf('#');
                String file = hash < 0 ? link : link.substring(0, hash);
                String anchor = hash < 0 ? null : link.substring(hash + 1);
                Path target = file.isEmpty() ? page : page.getParent().resolve(decode(file)).normalize();
                if (!target.startsWith(root) || !Files.exists(target)) {
                    broken.add(where + " -> no such file");
                    continue;
                }
                targets.putIfAbsent(target, where);
                if (anchor != null && !anchor.isEmpty()) {
                    if (!target.toString().endsWith(".md")) {
                        broken.add(where + " -> anchor into a file that is not Markdown");
                    } else if (!anchorsOf(target).contains(anchor)) {
                        broken.add(where + " -> no heading or <a id> '" + anchor + "' in " + root.relativize(target));
                    }
                }
            }
        }
        for (String ignored : ignoredByGit(root, targets.keySet())) {
            broken.add(targets.get(root.resolve(ignored)) + " -> ignored by git (" + ignored + "): exists only here");
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    /**
     * Every page of {@code docs/benchmarks/} but its index shows at least one chart: an image link
     * to a PNG that exists (the tables' charts come from {@code ./jato plot --tables}; the
     * directives and their tables are checked by the jmh module's {@code BenchmarkPagesTest}).
     */
    @Test
    void everyBenchmarkPageShowsAChart() throws Exception {
        Path dir = Build.root().resolve("docs/benchmarks");
        List<Path> pages;
        try (Stream<Path> files = Files.list(dir)) {
            pages = files.filter(p -> p.toString().endsWith(".md") && !p.getFileName().toString().equals("README.md"))
                    .sorted().toList();
        }
        assertTrue(pages.size() > 10, "found the benchmark pages: " + pages);
        List<String> without = new ArrayList<>();
        for (Path page : pages) {
            boolean shows = false;
            Matcher m = INLINE_LINK.matcher(withoutCode(Files.readString(page)));
            while (m.find() && !shows) {
                String link = m.group(1);
                shows = m.group().startsWith("!") && link.endsWith(".png")
                        && Files.isRegularFile(page.getParent().resolve(decode(link)).normalize());
            }
            if (!shows) {
                without.add(Build.root().relativize(page).toString());
            }
        }
        assertTrue(without.isEmpty(), "benchmark pages without a chart (![...](PAGE/charts/X.png)): " + without);
    }

    @Test
    void slugsAreGitHubs() {
        assertTrue(slugs("## Add the dependency\n").contains("add-the-dependency"));
        assertTrue(slugs("## Isolation levels (seed 001 §5.4), per store\n").contains("isolation-levels-seed-001-54-per-store"));
        assertTrue(slugs("# TicToc (`tictoc`, `tictoc-si`)\n").contains("tictoc-tictoc-tictoc-si"));
        assertTrue(slugs("## A — B\n## A — B\n").containsAll(Set.of("a--b", "a--b-1")));
        assertTrue(slugs("## [Link](x.md) text\n").contains("link-text"));
    }

    static List<Path> markdownFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            String s = part.toString();
                            if (s.equals("target") || s.startsWith(".") || s.equals("node_modules")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        }
    }

    private static String withoutCode(String markdown) {
        return CODE_SPAN.matcher(withoutFences(markdown)).replaceAll("``");
    }

    private static List<String> links(String text) {
        List<String> out = new ArrayList<>();
        for (Pattern p : List.of(INLINE_LINK, REFERENCE)) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static String decode(String path) {
        return java.net.URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private Set<String> anchorsOf(Path page) {
        return anchors.computeIfAbsent(page, p -> {
            Set<String> out = slugs(withoutFences(Build.read(p)));
            Matcher m = HTML_ANCHOR.matcher(Build.read(p));
            while (m.find()) {
                out.add(m.group(1));
            }
            return out;
        });
    }

    /** The text without fenced code blocks (lines from one ``` to the next). */
    private static String withoutFences(String markdown) {
        StringBuilder out = new StringBuilder();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.stripLeading().startsWith("```")) {
                inFence = !inFence;
            } else if (!inFence) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    /** GitHub's heading ids: rendered text, lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
    static Set<String> slugs(String markdown) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(markdown);
        while (m.find()) {
            String text = m.group(1)
                    .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")   // links: their text
                    .replaceAll("<[^>]+>", "")                          // inline HTML
                    .replace("`", "")
                    .replaceAll("(\\*{1,3})(\\S.*?)\\1", "$2");          // emphasis
            String slug = text.toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            out.add(n == 0 ? slug : slug + "-" + n);
        }
        return out;
    }

    /** The targets (relative to {@code root}) that git would ignore; none if git is not there. */
    private static Set<String> ignoredByGit(Path root, Set<Path> targets) throws Exception {
        Set<String> out = new TreeSet<>();
        if (!Files.exists(root.resolve(".git")) || targets.isEmpty()) {
            return out;
        }
        Process p;
        try {
            p = new ProcessBuilder("git", "-C", root.toString(), "check-ignore", "--stdin").redirectErrorStream(true).start();
        } catch (IOException noGit) {
            return out;
        }
        try (var in = p.getOutputStream()) {
            for (Path t : targets) {
                in.write((root.relativize(t) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), "git check-ignore did not finish");
        // 0: some ignored (listed), 1: none; anything else: git could not tell, so nothing is claimed.
        if (p.exitValue() == 0) {
            for (String line : output.split("\n")) {
                if (!line.isBlank()) {
                    out.add(line.trim());
                }
            }
        }
        return out;
    }
}
