// What refs.js and goto.js share: the language service over a repository's tracked .ts/.tsx
// files, what counts as a call, and the symbols measured.
const fs = require('fs'), path = require('path');
const STANDARD = new Set(['types', 'import', 'require', 'default', 'node', 'browser', 'module',
  'development', 'production', 'deno', 'worker', 'react-native']);

// A package's tests importing it by its own name (`zod/v3`) are resolved by TypeScript itself,
// through the repository's package.json `exports` with the package's own source conditions
// (`@zod/source`) on. Its dependencies are in REPO/node_modules (run.sh links them).
function createService(ts, root) {
  const manifest = path.join(root, 'package.json');
  const pkg = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : {};
  const conditions = new Set();
  (function walk(v) {
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      if (!k.startsWith('.') && !STANDARD.has(k)) conditions.add(k);
      walk(x);
    }
  })(pkg.exports);
  // Without such a condition, the package's own name leads to its built files, which the sources
  // do not ship: it is then its src/index.ts (tiptap's `declare module '@tiptap/core'`
  // augmentations of its own interfaces).
  const paths = {};
  const entry = path.join(root, 'src', 'index.ts');
  if (pkg.name && !conditions.size && fs.existsSync(entry)) paths[pkg.name] = [entry];
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
      strict: false, noEmit: true, customConditions: [...conditions], paths}),
    getDefaultLibFileName: o => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
  };
  const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
  return {ls, program: ls.getProgram(), files};
}

// A use that nexus-lite links as calls/inherits: a call, `new` or `extends` callee, directly or
// as `ns.name(...)` / `x.method(...)`.
function isCode(ts, id) {
  let n = id, p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === n) { n = p; p = n.parent; }
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === n) return true;
  return ts.isExpressionWithTypeArguments(p) && p.parent && ts.isHeritageClause(p.parent)
    && p.parent.token === ts.SyntaxKind.ExtendsKeyword;
}

// The symbols measured, by `file\0name` (a method's name is `Class.method`): exported top-level
// functions and classes, and the methods with a body of top-level classes. `nameNode` is where
// findReferences is asked; `starts`, where the declaration's names begin (a method's overloads
// are one symbol, defined at the first; `null` for a function or class: every definition
// findReferences groups with it counts); `spans`, the declarations' [pos, end), where
// go-to-definition may land.
function declarations(ts, root, program, files) {
  const out = new Map();
  for (const f of files) {
    const sf = program.getSourceFile(path.join(root, f));
    if (!sf) continue;
    for (const st of sf.statements) {
      if (!st.name) continue;
      const exported = (ts.getCombinedModifierFlags(st) & ts.ModifierFlags.Export) !== 0;
      const kind = ts.isFunctionDeclaration(st) ? 'function' : ts.isClassDeclaration(st) ? 'class' : null;
      if (exported && kind && !out.has(`${f}\0${st.name.text}`)) {
        const same = sf.statements.filter(o => o.name && o.name.text === st.name.text
          && (ts.isFunctionDeclaration(o) || ts.isClassDeclaration(o)));
        out.set(`${f}\0${st.name.text}`, {file: f, sf, nameNode: st.name, name: st.name.text,
          short: st.name.text, kind, starts: null, spans: same.map(o => [o.getStart(sf), o.end])});
      }
      if (!ts.isClassDeclaration(st)) continue;
      const methods = st.members.filter(m => ts.isMethodDeclaration(m) && m.name && ts.isIdentifier(m.name));
      for (const m of methods) {
        const name = `${st.name.text}.${m.name.text}`;
        if (!m.body || out.has(`${f}\0${name}`)) continue;
        const same = methods.filter(o => o.name.text === m.name.text);
        out.set(`${f}\0${name}`, {file: f, sf, nameNode: m.name, name, short: m.name.text,
          kind: 'method', starts: same.map(o => o.name.getStart(sf)),
          spans: same.map(o => [o.getStart(sf), o.end])});
      }
    }
  }
  return out;
}

module.exports = {createService, isCode, declarations};
