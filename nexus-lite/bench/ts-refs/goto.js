// Settles the files where nexus-lite and `findReferences` (refs.js) disagree, with the language
// service's own go-to-definition, as the Python bench settles jedi's with its goto. Input: one
// JSON line per dispute, {file, name, kind, site} (the symbol refs.js named, and the file of
// the disagreement); output: the same line with `all` (go-to-definition from some use of the
// symbol's name in `site` lands on its declaration) and `code` (from such a use that is a call,
// `new` or `extends`, as refs.js counts them).
// Usage: node goto.js TYPESCRIPT_DIR REPO DISPUTES.jsonl
const ts = require(process.argv[2]);
const fs = require('fs'), path = require('path');
const {createService, isCode, declarations} = require('./service.js');
const root = process.argv[3];
const {ls, program, files} = createService(ts, root);
const decls = declarations(ts, root, program, files);

function uses(sf, name) {
  const out = [];
  (function walk(n) {
    if (ts.isIdentifier(n) && n.text === name) out.push(n);
    ts.forEachChild(n, walk);
  })(sf);
  return out;
}

for (const line of fs.readFileSync(process.argv[4], 'utf8').split('\n')) {
  if (!line) continue;
  const d = JSON.parse(line);
  const decl = decls.get(`${d.file}\0${d.name}`);
  const sf = program.getSourceFile(path.join(root, d.site));
  let all = false, code = false;
  if (decl && sf) {
    for (const id of uses(sf, decl.short)) {
      const defs = ls.getDefinitionAtPosition(sf.fileName, id.getStart(sf)) || [];
      const hit = defs.some(x => path.relative(root, x.fileName) === d.file
        && decl.spans.some(([from, to]) => x.textSpan.start >= from && x.textSpan.start < to));
      if (!hit) continue;
      all = true;
      if (isCode(ts, id)) { code = true; break; }
    }
  }
  console.log(JSON.stringify({...d, all, code}));
}
