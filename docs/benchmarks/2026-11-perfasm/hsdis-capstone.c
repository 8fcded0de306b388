/* A disassembler plug-in for HotSpot's PrintAssembly (and so JMH's perfasm) on top of Debian's capstone.
 * Build: gcc -O2 -shared -fPIC -o hsdis-amd64.so hsdis-capstone.c -lcapstone (needs libcapstone-dev);
 * copy it into $JAVA_HOME/lib. A measuring tool of this page, not part of Jato. */
#include <stdint.h>
#include <stdio.h>
#include <capstone/capstone.h>
typedef void* (*ev_cb)(void*, const char*, void*);
typedef int (*pr_cb)(void*, const char*, ...);
void* decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char* buf, uintptr_t len,
    ev_cb ev, void* evs, pr_cb pr, void* prs, const char* options, int newline) {
  csh h; cs_insn* insn;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return NULL;
  size_t n = cs_disasm(h, buf, len, start_va, 0, &insn);
  uintptr_t end = start_va;
  for (size_t i = 0; i < n; i++) {
    ev(evs, "insn", (void*)(uintptr_t)insn[i].address);
    pr(prs, "%s\t%s", insn[i].mnemonic, insn[i].op_str);
    ev(evs, "/insn", (void*)(uintptr_t)(insn[i].address + insn[i].size));
    if (newline) pr(prs, "\n");
    end = insn[i].address + insn[i].size;
  }
  if (n) cs_free(insn, n);
  cs_close(&h);
  return (void*)end;
}
