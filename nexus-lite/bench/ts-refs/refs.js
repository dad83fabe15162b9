// References of a repository's exported top-level TS functions and classes, from the TypeScript
// language service (`findReferences`), one JSON line per symbol:
//   {file, name, kind, all: [files], code: [files]}
// `all`: files referring to it outside import/export declarations and outside its own file;
// `code`: those where a reference is a call, `new`, `extends` or `ns.name(...)` callee (what
// nexus-lite links as calls/inherits).  Usage: node refs.js TYPESCRIPT_DIR REPO
const ts = require(process.argv[2]);
const fs = require('fs'), path = require('path');
const root = process.argv[3];
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
    strict: false, noEmit: true}),
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
for (const f of files) {
  const sf = program.getSourceFile(path.join(root, f));
  if (!sf) continue;
  for (const st of sf.statements) {
    const exported = (ts.getCombinedModifierFlags(st) & ts.ModifierFlags.Export) !== 0;
    if (!exported || !st.name) continue;
    const kind = ts.isFunctionDeclaration(st) ? 'function' : ts.isClassDeclaration(st) ? 'class' : null;
    if (!kind) continue;
    const refs = ls.findReferences(path.join(root, f), st.name.getStart(sf)) || [];
    const all = new Set(), code = new Set();
    for (const r of refs) for (const e of r.references) {
      if (e.isDefinition) continue;
      const rf = path.relative(root, e.fileName);
      if (rf === f || rf.startsWith('..')) continue;
      const id = ts.getTokenAtPosition(program.getSourceFile(e.fileName), e.textSpan.start);
      let inDecl = false;
      for (let a = id; a; a = a.parent) if (ts.isImportDeclaration(a) || ts.isExportDeclaration(a)) { inDecl = true; break; }
      if (inDecl) continue;
      all.add(rf);
      if (id && id.parent && isCode(id)) code.add(rf);
    }
    console.log(JSON.stringify({file: f, name: st.name.text, kind, all: [...all].sort(), code: [...code].sort()}));
  }
}
