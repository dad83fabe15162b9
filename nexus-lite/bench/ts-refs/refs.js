// References of a repository's exported top-level TS functions and classes, and of the methods
// of its top-level classes, from the TypeScript language service (`findReferences`), one JSON
// line per symbol:
//   {file, name, kind, all: [files], code: [files]}   (a method's name is `Class.method`)
// `all`: files referring to it outside import/export declarations and outside its own file;
// `code`: those where a reference is a call, `new`, `extends` or `ns.name(...)` /
// `x.method(...)` callee (what nexus-lite links as calls/inherits), directly or through a
// variable holding it. A method counts the references TypeScript binds to that very
// declaration, not to the methods it overrides or that override it (the static type at the
// call, as jedi's goto for Python). The service and the symbols measured: service.js.
// Usage: node refs.js TYPESCRIPT_DIR REPO
const ts = require(process.argv[2]);
const path = require('path');
const {createService, isCode, declarations} = require('./service.js');
const root = process.argv[3];
const {ls, program, files} = createService(ts, root);
// `starts`: where the declaration's names begin (a method's overloads are one symbol, defined at
// the first); `null` counts every definition findReferences groups with it.
function report(f, sf, nameNode, name, kind, starts) {
  const all = new Set(), code = new Set();
  collect(f, nameNode.getStart(sf), starts, all, code, 0);
  all.delete(f); code.delete(f);
  console.log(JSON.stringify({file: f, name, kind, all: [...all].sort(), code: [...code].sort()}));
}
// The files referring to the symbol at `at` of file `f` (`all`) and calling it (`code`). A
// variable holding it (`const functionType = ZodFunction.create`, exported as `function`) is
// followed: a call of the variable is a call of what it holds.
function collect(f, at, starts, all, code, depth) {
  for (const r of ls.findReferences(path.join(root, f), at) || []) {
    const d = r.definition;
    if (starts && !(path.relative(root, d.fileName) === f && starts.includes(d.textSpan.start))) continue;
    for (const e of r.references) {
      if (e.isDefinition) continue;
      const rf = path.relative(root, e.fileName);
      if (rf.startsWith('..')) continue;
      const id = ts.getTokenAtPosition(program.getSourceFile(e.fileName), e.textSpan.start);
      let inDecl = false;
      for (let a = id; a; a = a.parent) if (ts.isImportDeclaration(a) || ts.isExportDeclaration(a)) { inDecl = true; break; }
      if (inDecl) continue;
      all.add(rf);
      if (id && id.parent && isCode(ts, id)) code.add(rf);
      const held = id && id.parent && ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
      const v = held && held.parent;
      if (depth < 2 && v && ts.isVariableDeclaration(v) && v.initializer === held && ts.isIdentifier(v.name)) {
        const vf = program.getSourceFile(e.fileName);
        collect(rf, v.name.getStart(vf), null, all, code, depth + 1);
      }
    }
  }
}
for (const d of declarations(ts, root, program, files).values()) {
  report(d.file, d.sf, d.nameNode, d.name, d.kind, d.starts);
}
