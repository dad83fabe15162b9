// Parses every file listed in argv[1] (read into memory first) with tree-sitter's Python grammar,
// argv[2] rounds; prints each round's time. Built and run by run.sh.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tree_sitter/api.h"
const TSLanguage *tree_sitter_python(void);
int main(int argc, char **argv) {
  FILE *l = fopen(argv[1], "r"); char line[4096]; int n = 0, cap = 8192;
  char **src = malloc(cap * sizeof *src); size_t *len = malloc(cap * sizeof *len);
  while (fgets(line, sizeof line, l)) { line[strcspn(line, "\n")] = 0;
    FILE *f = fopen(line, "rb"); if (!f) continue; fseek(f, 0, SEEK_END); long s = ftell(f); rewind(f);
    src[n] = malloc(s + 1); len[n] = fread(src[n], 1, s, f); fclose(f); n++; }
  TSParser *p = ts_parser_new(); ts_parser_set_language(p, tree_sitter_python());
  int rounds = argc > 2 ? atoi(argv[2]) : 1;
  for (int r = 0; r < rounds; r++) {
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a); size_t nodes = 0;
    for (int i = 0; i < n; i++) { TSTree *t = ts_parser_parse_string(p, NULL, src[i], len[i]);
      nodes += ts_node_child_count(ts_tree_root_node(t)); ts_tree_delete(t); }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%d files %.0f ms (%zu)\n", n, (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6, nodes);
  }
}
