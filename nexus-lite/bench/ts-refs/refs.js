// References of a repository's exported top-level TS functions and classes, and of the methods
// of its top-level classes, from the TypeScript language service (`findReferences`), one JSON
// line per symbol:
//   {file, name, kind, all: [files], code: [files]}   (a method's name is `Class.method`)
// `all`: files referring to it outside import/export declarations and outside its own file;
// `code`: those where a reference is a call, `new`, `extends` or `ns.name(...)` / `x.method(...)`
// callee (what nexus-lite links as calls/inherits), directly or through a variable holding it. A method counts the references TypeScript
// binds to that very declaration, not to the methods it overrides or that override it (the
// static type at the call, as jedi's goto for Python). A package's tests importing it by its own
// name (`zod/v3`) are resolved by TypeScript itself, through the repository's package.json
// `exports` with the package's own source conditions (`@zod/source`) on.
// Usage: node refs.js TYPESCRIPT_DIR REPO
const ts = require(process.argv[2]);
const fs = require('fs'), path = require('path');
const root = process.argv[3];
const STANDARD = new Set(['types', 'import', 'require', 'default', 'node', 'browser', 'module',
  'development', 'production', 'deno', 'worker', 'react-native']);
const conditions = new Set();
(function walk(v) {
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
    if (!k.startsWith('.') && !STANDARD.has(k)) conditions.add(k);
    walk(x);
  }
})(fs.existsSync(path.join(root, 'package.json'))
  ? JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).exports : null);
const files = require('child_process').execSync('git ls-files', {cwd: root}).toString()
  .split('\n').filter(f => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'));
const abs = files.map(f => path.join(root, f));
const host = {
  getScriptFileNames: () => abs,
  getScriptVersion: () => '1',
  getScriptSnapshot: f => fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined,
  getCurrentDirectory: () => root,
  getCompilationSettings: () => ({target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    strict: false, noEmit: true, customConditions: [...conditions]}),
  getDefaultLibFileName: o => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = ls.getProgram();
function isCode(id) {
  let n = id, p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === n) { n = p; p = n.parent; }
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === n) return true;
  return ts.isExpressionWithTypeArguments(p) && p.parent && ts.isHeritageClause(p.parent)
    && p.parent.token === ts.SyntaxKind.ExtendsKeyword;
}
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
      if (id && id.parent && isCode(id)) code.add(rf);
      const held = id && id.parent && ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
      const v = held && held.parent;
      if (depth < 2 && v && ts.isVariableDeclaration(v) && v.initializer === held && ts.isIdentifier(v.name)) {
        const vf = program.getSourceFile(e.fileName);
        collect(rf, v.name.getStart(vf), null, all, code, depth + 1);
      }
    }
  }
}
for (const f of files) {
  const sf = program.getSourceFile(path.join(root, f));
  if (!sf) continue;
  for (const st of sf.statements) {
    if (!st.name) continue;
    const exported = (ts.getCombinedModifierFlags(st) & ts.ModifierFlags.Export) !== 0;
    const kind = ts.isFunctionDeclaration(st) ? 'function' : ts.isClassDeclaration(st) ? 'class' : null;
    if (exported && kind) report(f, sf, st.name, st.name.text, kind, null);
    if (!ts.isClassDeclaration(st)) continue;
    const methods = st.members.filter(m => ts.isMethodDeclaration(m) && m.name && ts.isIdentifier(m.name));
    for (const m of methods) {
      if (!m.body) continue;
      const starts = methods.filter(o => o.name.text === m.name.text).map(o => o.name.getStart(sf));
      report(f, sf, m.name, `${st.name.text}.${m.name.text}`, 'method', starts);
    }
  }
}
