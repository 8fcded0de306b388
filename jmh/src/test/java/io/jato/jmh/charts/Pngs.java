package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Reads a chart back and checks that it is a real PNG of the agreed size (800x500). */
final class Pngs {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private Pngs() {
    }

    /** The decoded image of {@code png}, after checking its signature and size. */
    static BufferedImage read(Path png) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(png)) {
            head = in.readNBytes(SIGNATURE.length);
        }
        assertArrayEquals(SIGNATURE, head, png + " is not a PNG");
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png + " cannot be decoded");
        assertEquals(800, image.getWidth(), png.toString());
        assertEquals(500, image.getHeight(), png.toString());
        assertEquals(ChartRenderer.WIDTH, image.getWidth(), png.toString());
        assertEquals(ChartRenderer.HEIGHT, image.getHeight(), png.toString());
        return image;
    }

    /** How many pixels of {@code image} are exactly {@code color}: whether a series of that colour was drawn. */
    static long pixels(BufferedImage image, Color color) {
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += (image.getRGB(x, y) & 0xffffff) == (color.getRGB() & 0xffffff) ? 1 : 0;
            }
        }
        return n;
    }
}
