#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! TypeScript resolution (issue 30, TypeScript truth): a package's tests importing it by its own
//! name, receivers typed by annotations, fields, parameter properties, return types, overloads,
//! callbacks' parameters, type guards, `instanceof` and aliases (`const string =
//! ZodString.create`), and no name-only guess where the receiver's type is known to be no
//! class of the repository.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/minizod";

/// A package shaped like zod 3: `z.string()` is an alias of a static method, reached through a
/// barrel by the package's own name.
fn minizod(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "package.json",
            r#"{"name": "minizod", "exports": {"./v3": {"@minizod/source": "./src/v3/index.ts", "types": "./v3/index.d.cts", "import": "./v3/index.js"}}}"#,
        ),
        (
            "src/v3/types.ts",
            "export class ZodType {\n  parse(data: unknown) { return data; }\n}\n\n\
             export class ZodString extends ZodType {\n  min(n: number) { return this._addCheck(n); }\n  \
             _addCheck(n: number) { return new ZodString(); }\n  toUpperCase() { return this; }\n  \
             static create = (): ZodString => new ZodString();\n}\n\n\
             const stringType = ZodString.create;\nexport { stringType as string };\n\n\
             export interface Schema { parse(data: unknown): unknown }\n\
             export function schema(): Schema { return null as any; }\n\n\
             export function pick(x: string): ZodString;\nexport function pick(x: number): ZodString;\n\
             export function pick(x: any) { return x; }\n",
        ),
        ("src/v3/external.ts", "export * from \"./types.js\";\n"),
        (
            "src/v3/index.ts",
            "import * as z from \"./external.js\";\nexport * from \"./external.js\";\nexport { z };\n",
        ),
        (
            "src/v3/tests/string.test.ts",
            "import { z } from \"minizod/v3\";\n\nconst minFive = z.string().min(5);\nminFive.parse(\"x\");\n",
        ),
        (
            "src/v3/tests/overload.test.ts",
            "import * as z from \"minizod/v3\";\n\nz.pick(1).min(2);\n",
        ),
        (
            "src/v3/tests/iface.test.ts",
            "import * as z from \"minizod/v3\";\n\nz.schema().parse(1);\nJSON.parse(\"{}\");\n\
             const s = String(1);\ns.toUpperCase();\n\
             export function typed(e: Event) {\n  const el = e.target as HTMLElement;\n  return el._addCheck(1);\n}\n",
        ),
        (
            "src/app/holder.ts",
            "import { ZodString } from \"../v3/types\";\n\nexport class Holder {\n  \
             private field: ZodString = new ZodString();\n  assigned: ZodString;\n  \
             constructor(private readonly injected: ZodString, plain: ZodString) {\n    this.assigned = plain;\n  }\n  \
             viaField() { return this.field.min(1); }\n  viaProperty() { return this.injected.min(2); }\n  \
             viaParameter(arg: ZodString) { return arg.min(3); }\n  \
             viaAssigned() { return this.assigned.min(4); }\n  \
             #secret: ZodString = new ZodString();\n  viaPrivate() { return this.#secret.min(10); }\n}\n",
        ),
        (
            "src/v3/operate.ts",
            "import { ZodString } from \"./types\";\n\n\
             export function operate(init: (source: unknown, s: ZodString) => void): void {}\n\n\
             export class Runner {\n  constructor(fn: (this: unknown, s: ZodString) => void) {}\n}\n",
        ),
        (
            "src/app/op.ts",
            "import { operate, Runner } from \"../v3/operate\";\n\n\
             export function useOperate() {\n  operate((source, s) => {\n    s.min(6);\n  });\n}\n\n\
             export function useRunner() {\n  return new Runner((s) => s.min(7));\n}\n",
        ),
        (
            "src/v3/guards.ts",
            "import { ZodString } from \"./types\";\n\n\
             export function isZodString(x: unknown): x is ZodString {\n  return x instanceof ZodString;\n}\n",
        ),
        (
            "src/app/narrow.ts",
            "import { ZodString } from \"../v3/types\";\nimport { isZodString } from \"../v3/guards\";\n\n\
             export function byGuard(x: unknown) {\n  if (isZodString(x)) {\n    return x.min(8);\n  }\n  return null;\n}\n\n\
             export function byInstanceof(x: unknown) {\n  if (x instanceof ZodString) {\n    return x.min(9);\n  }\n  return null;\n}\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// Receivers typed by what containers hold (`Map<K, V>`, `T[]`, `ReadonlyArray<T>`), by a
/// type guard held in a variable and by a union of guards.
fn containers(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/items.ts",
            "export class Item {\n  run() { return 1; }\n}\n\n\
             export class Other {\n  run() { return 2; }\n}\n\n\
             function make(): any { return null; }\n\
             export var isItem = make() as (x: any) => x is Item;\n\
             export function isOther(x: any): x is Other { return true; }\n",
        ),
        (
            "src/registry.ts",
            "import { Item, isItem, isOther } from \"./items\";\n\n\
             export class Registry {\n  private byName = new Map<string, Item>();\n  \
             private list: Item[] = [];\n  \
             viaGet(k: string) { return this.byName.get(k)!.run(); }\n  \
             viaIndex(i: number) { return this.list[i].run(); }\n  \
             viaForOf() { for (const it of this.list) { it.run(); } }\n  \
             viaValues() { for (const it of this.byName.values()) { it.run(); } }\n  \
             viaForEach(xs: ReadonlyArray<Item>) { xs.forEach((it) => it.run()); }\n}\n\n\
             export function viaHeldGuard(x: unknown) {\n  if (isItem(x)) {\n    return x.run();\n  }\n  return 0;\n}\n\n\
             export function viaEither(x: unknown) {\n  if (isItem(x) || isOther(x)) {\n    return x.run();\n  }\n  return 0;\n}\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// redux-toolkit's shape: a callback in an options object (an interface or an object type
/// alias), whose parameter is typed by a function type alias (`middleware: (gDM) =>
/// gDM().concat(...)`), and a callback passed directly whose parameter has such a type.
fn options_callbacks(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/tuple.ts",
            "export class Tuple {\n  concat(...items: any[]) { return this; }\n  \
             prepend(...items: any[]) { return this; }\n}\n",
        ),
        (
            "src/defaults.ts",
            "import { Tuple } from \"./tuple\";\n\n\
             export type GetDefaults<S = any> = <O>(options?: O) => Tuple;\n\n\
             export const buildDefaults = (): GetDefaults => () => new Tuple();\n",
        ),
        (
            "src/store.ts",
            "import type { GetDefaults } from \"./defaults\";\n\
             import { Tuple } from \"./tuple\";\n\n\
             export interface StoreOptions<S> {\n  reducer: S;\n  \
             middleware?: (getDefaults: GetDefaults<S>) => Tuple;\n}\n\n\
             export function configureStore<S>(options: StoreOptions<S>) { return options; }\n\n\
             export function withDefaults(use: (getDefaults: GetDefaults) => void) {}\n\n\
             export type EnhanceOptions = {\n  enhancers?: (getDefaults: GetDefaults) => Tuple;\n};\n\n\
             export interface Context {\n  tuple: Tuple;\n}\n\n\
             export function withContext(use: (context: Context) => void) {}\n\n\
             export function enhance(options: EnhanceOptions) {}\n",
        ),
        (
            "src/app.ts",
            "import { configureStore, enhance, withContext, withDefaults } from \"./store\";\n\n\
             export function makeStore() {\n  \
             return configureStore({ reducer: 1, middleware: (gDM) => gDM().concat() });\n}\n\n\
             export function direct() {\n  withDefaults((g) => g().prepend());\n}\n\n\
             export function viaObjectType() {\n  enhance({ enhancers: (gDE) => gDE().prepend() });\n}\n\n\
             export function destructured() {\n  withContext(({ tuple }) => tuple.prepend());\n}\n\n\
             export function shorthand() {\n  \
             return configureStore({ reducer: 1, middleware(gDM) { return gDM().concat(); } });\n}\n\n\
             export function noSuchMember() {\n  \
             return configureStore({ reducer: 1, other: (gDM) => gDM().concat() });\n}\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// zod's factories: a static field holding an overloaded function, exported under another
/// name through a module-level alias (`const enumType = ZodEnum.create; export { enumType as
/// enum }`).
fn held_functions(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/schema.ts",
            "export class Schema {\n  parse(x: unknown) { return x; }\n}\n\n\
             function createSchema(): Schema;\n\
             function createSchema(name: string): Schema;\n\
             function createSchema(name?: string) { return make(name); }\n\n\
             function make(name?: string): any { return null; }\n\n\
             export class Factory {\n  static create = createSchema;\n}\n\n\
             const schemaType = Factory.create;\n\
             export { schemaType as schema };\n",
        ),
        (
            "src/use.ts",
            "import * as s from \"./schema\";\n\n\
             export function viaStatic() { return s.Factory.create().parse(1); }\n\n\
             export function viaExport() { return s.schema(\"x\").parse(2); }\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// An interface, a class implementing it, and calls through a value typed by the interface.
fn interfaces(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/atom.ts",
            "export interface IAtom {\n  reportChanged(): void;\n  reportChanged(why: string): void;\n  \
             onBecome: (n: number) => void;\n  name_: string;\n}\n\n\
             export interface INamed extends IAtom {\n  rename(to: string): IAtom;\n}\n\n\
             export class Atom implements IAtom {\n  name_ = \"\";\n  reportChanged() {}\n  \
             onBecome = (n: number) => {};\n}\n\n\
             export interface Atom {\n  mixedIn(): void;\n}\n\n\
             export interface Holds {\n  atom_: IAtom;\n}\n\n\
             export const $atom = Symbol(\"atom\");\n\
             export interface IsAtom {\n  [$atom]: IAtom;\n}\n\
             export interface Registry {\n  [key: string]: Atom;\n}\n\n\
             export class Pool {\n  drain() {}\n}\n\n\
             export class Store {\n  all(): Array<Atom> { return []; }\n}\n\n\
             export interface Sink {\n  drain(): void;\n  flush(): void;\n}\n",
        ),
        (
            "src/use.ts",
            "import { $atom, Atom, Holds, IAtom, INamed, IsAtom, Registry, Store } from \"./atom\";\n\n\
             export class Holder {\n  constructor(private atom_: IAtom) {}\n  \
             touch() { this.atom_.reportChanged(); }\n  hook() { this.atom_.onBecome(1); }\n  \
             viaThis() { const { atom_ } = this; atom_.onBecome(2); }\n  \
             renamed() { const { atom_: a = null } = this; const { atom_: b } = this; b.onBecome(3); }\n}\n\n\
             export function viaProps({ atom_ }: Holds) { return atom_.reportChanged(); }\n\n\
             export function viaComputed(x: unknown) { return (x as IsAtom)[$atom].reportChanged(); }\n\n\
             export function viaIndex(reg: Registry) { return reg[\"a\"].reportChanged(); }\n\n\
             export class Box {\n  [$atom]: IAtom;\n  poke() { this[$atom].onBecome(4); }\n}\n\n\
             export function chained(n: INamed) { return n.rename(\"x\").reportChanged(); }\n\n\
             export function untyped(a: any) { return a.reportChanged(); }\n\n\
             export function untypedDrain(s: any) { return s.drain(); }\n\n\
             export function viaReturned(s: Store) { s.all().forEach((a) => a.reportChanged()); }\n\n\
             export function viaHeld(s: Store) { const list = s.all(); return list[0].reportChanged(); }\n\n\
             export function made() { return new Atom().reportChanged(); }\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// Lexical's shapes: nodes narrowed by guard functions in conditions, methods returning
/// `this`, and generics constrained to a node class.
fn narrowed(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/nodes.ts",
            "export class LexicalNode {\n  getLatest(): this { return this; }\n}\n\n\
             export class ElementNode extends LexicalNode {\n  getFirstChild() { return null; }\n  \
             isInline() { return false; }\n}\n\n\
             export class TextNode extends LexicalNode {\n  getFormat() { return 0; }\n  \
             isInline() { return true; }\n}\n\n\
             export function $isElementNode(n: LexicalNode | null): n is ElementNode {\n  \
             return n instanceof ElementNode;\n}\n\n\
             export function $isTextNode(n: LexicalNode | null): n is TextNode {\n  \
             return n instanceof TextNode;\n}\n\n\
             export type InlineNode = ElementNode | TextNode;\n",
        ),
        (
            "src/use.ts",
            "import { $isElementNode, $isTextNode, ElementNode, InlineNode, LexicalNode, TextNode } from \"./nodes\";\n\n\
             export function viaAnd(n: LexicalNode) { return $isElementNode(n) && n.isInline(); }\n\n\
             export function viaOr(n: LexicalNode) { return !$isTextNode(n) || n.isInline(); }\n\n\
             export function viaTernary(n: LexicalNode) { return $isTextNode(n) ? n.getFormat() : 0; }\n\n\
             export function viaElse(n: LexicalNode) {\n  if (!$isTextNode(n)) {\n    return 0;\n  } else {\n    \
             return n.getFormat();\n  }\n}\n\n\
             export function viaEarlyReturn(n: LexicalNode) {\n  if (!(n instanceof ElementNode)) {\n    \
             // not an element\n    return null;\n  }\n  return n.getFirstChild();\n}\n\n\
             export function notNarrowed(n: LexicalNode) {\n  if ($isElementNode(n)) {\n    return;\n  }\n  \
             return n.isInline();\n}\n\n\
             export function viaThis(n: TextNode) { return n.getLatest().getFormat(); }\n\n\
             export function viaConstraint<N extends ElementNode>(node: N) { return node.getFirstChild(); }\n\n\
             export function $first<T extends ElementNode>(): T { return null as any; }\n\n\
             export function viaReturnedConstraint() { return $first().getFirstChild(); }\n\n\
             export class Caret<T extends TextNode> {\n  constructor(readonly origin: T) {}\n  \
             format() { return this.origin.getFormat(); }\n}\n\n\
             export function viaAlias(n: InlineNode) { return n.isInline(); }\n\n\
             class BaseCaret<T extends LexicalNode> {\n  constructor(readonly at: T) {}\n}\n\n\
             export class ChildCaret<T extends ElementNode> extends BaseCaret<T> {\n  \
             first() { return this.at.getFirstChild(); }\n}\n\n\
             export function twoCallbacks(es: ElementNode[], ts: TextNode[]) {\n  \
             es.forEach((n) => n.getFirstChild());\n  ts.forEach((n) => n.getFormat());\n}\n\n\
             export function twoTyped(run: (f: unknown) => void) {\n  \
             run((n: ElementNode) => n.getFirstChild());\n  run((n: TextNode) => n.getFormat());\n}\n\n\
             export function viaObjectType(record: { node: TextNode; el: ElementNode }) {\n  \
             const { node } = record;\n  node.getFormat();\n  return record.el.getFirstChild();\n}\n\n\
             export interface Handlers {\n  onText: (n: TextNode) => number;\n  onElement(n: ElementNode): unknown;\n  \
             onInline: <N extends ElementNode>(n: N) => boolean;\n}\n\n\
             export const handlers: Handlers = {\n  onText: (n) => n.getFormat(),\n  \
             onElement: (n) => n.getFirstChild(),\n  onInline: (n) => n.isInline(),\n};\n\n\
             function go() { return 1; }\n\n\
             export function callsGuarded() { return $isTextNode(go as any) || ($isTextNode(go) && go()); }\n",
        ),
    ];
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

/// The callers of `symbol` at depth 1: the items of every page.
fn impact(a: SocketAddr, symbol: &str) -> Value {
    let query = format!(
        "/api/v1/impact?repository={REPO}&symbol={}&depth=1",
        enc(symbol)
    );
    let (mut items, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let page = match &cursor {
            Some(c) => format!("{query}&cursor={}", enc(c)),
            None => query.clone(),
        };
        let r = get(a, &page);
        assert_eq!(r.status, 200, "{}", r.body);
        items.extend(r.body["items"].as_array().cloned().unwrap_or_default());
        match r.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return serde_json::json!({ "items": items }),
        }
    }
}

fn callers(body: &Value) -> BTreeSet<String> {
    found(body)
        .into_iter()
        .filter(|(_, via, _)| via == "calls")
        .map(|(who, _, _)| who)
        .collect()
}

#[test]
fn a_package_importing_itself_by_name_reaches_its_sources_and_typed_receivers_their_methods() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    minizod(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);

    // `z.string()`: `import { z } from "minizod/v3"` through package.json's source condition,
    // a barrel and a namespace; `string` an exported alias of `ZodString.create`.
    let create = impact(srv.addr, "src/v3/types.ZodString.create");
    assert!(
        found(&create).contains(&(
            "src/v3/tests/string.test.ts".into(),
            "calls".into(),
            "inferred".into()
        )),
        "{create}"
    );
    // Its result typed by `create`'s return annotation; `pick`'s by its overloads';
    // fields (`#private` ones too), a parameter property, an assigned attribute and a
    // parameter by annotations;
    // a callback's parameters by the type of the parameter taking it (a function's, a
    // constructor's).
    let min = callers(&impact(srv.addr, "src/v3/types.ZodString.min"));
    for who in [
        "src/v3/tests/string.test.ts",
        "src/v3/tests/overload.test.ts",
        "src/app/holder.Holder.viaField",
        "src/app/holder.Holder.viaProperty",
        "src/app/holder.Holder.viaParameter",
        "src/app/holder.Holder.viaAssigned",
        "src/app/holder.Holder.viaPrivate",
        "src/app/op.useOperate",
        "src/app/op.useRunner",
    ] {
        assert!(min.contains(who), "{who} not among {min:?}");
    }
    // Narrowed by a type guard (`inferred`) and by `instanceof` (`exact`, as `Cls().m()`):
    // typed, not a guess by name.
    let min = found(&impact(srv.addr, "src/v3/types.ZodString.min"));
    for (who, resolution) in [
        ("src/app/narrow.byGuard", "inferred"),
        ("src/app/narrow.byInstanceof", "exact"),
    ] {
        let typed = (who.to_string(), "calls".to_string(), resolution.to_string());
        assert!(min.contains(&typed), "{who}: {min:?}");
    }
    // `min()` returns `this._addCheck()`, which returns `new ZodString()`: `parse` is the
    // base class's.
    let parse = callers(&impact(srv.addr, "src/v3/types.ZodType.parse"));
    assert!(parse.contains("src/v3/tests/string.test.ts"), "{parse:?}");
}

#[test]
fn elements_of_maps_and_arrays_and_guards_held_in_variables_type_receivers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    containers(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let run = found(&impact(srv.addr, "src/items.Item.run"));
    for who in [
        "src/registry.Registry.viaGet",
        "src/registry.Registry.viaIndex",
        "src/registry.Registry.viaForOf",
        "src/registry.Registry.viaValues",
        "src/registry.Registry.viaForEach",
        "src/registry.viaHeldGuard",
        "src/registry.viaEither",
    ] {
        let typed = (who.to_string(), "calls".to_string(), "inferred".to_string());
        assert!(run.contains(&typed), "{who}: {run:?}");
    }
    // `isItem(x) || isOther(x)`: either class's method.
    let other = found(&impact(srv.addr, "src/items.Other.run"));
    let either = (
        "src/registry.viaEither".to_string(),
        "calls".to_string(),
        "inferred".to_string(),
    );
    assert!(other.contains(&either), "{other:?}");
}

#[test]
fn no_name_only_guess_where_the_receiver_is_an_interface_a_global_or_a_string() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    minizod(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    // `z.schema()` returns an interface, `JSON` is a global: neither `parse` is ZodType's.
    let parse = callers(&impact(srv.addr, "src/v3/types.ZodType.parse"));
    assert!(!parse.contains("src/v3/tests/iface.test.ts"), "{parse:?}");
    // `s.toUpperCase()` on an untyped value is a string's, not the one method of that name.
    let upper = callers(&impact(srv.addr, "src/v3/types.ZodString.toUpperCase"));
    assert!(upper.is_empty(), "{upper:?}");
    // A value typed by a capitalised name nothing binds (`HTMLElement`, a DOM type) is the
    // platform's: its `_addCheck` is not ZodString's.
    let add = found(&impact(srv.addr, "src/v3/types.ZodString._addCheck"));
    assert!(
        !add.iter()
            .any(|(who, _, _)| who.starts_with("src/v3/tests/iface")),
        "{add:?}"
    );
}

/// zod 3.25.76 from npm, its package.json and src/ made a repository (as `bench/ts-refs` does):
/// its v3 tests import it as `zod/v3` and call `z.string().min(5)`, which reaches `ZodString.min`
/// through the package's exports, a barrel, an exported alias of `ZodString.create` and its
/// return annotation; zod 4's schemas are interfaces, so their `parse` is no guess at zod 3's.
#[test]
fn zod_from_npm_its_tests_reach_the_methods_they_call() {
    if !common::sdist::wanted("zod@3.25.76 from npm") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let package = common::sdist::fetch_npm("zod@3.25.76", work.path());
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(
        package.join("package.json"),
        repo.path().join("package.json"),
    )
    .unwrap();
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(package.join("src"))
        .arg(repo.path())
        .status()
        .unwrap();
    assert!(copied.success());
    git(repo.path(), &["init", "-q", "-b", "main"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "zod 3.25.76"]);
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let min = found(&impact(srv.addr, "src/v3/types.ZodString.min"));
    assert!(
        min.contains(&(
            "src/v3/tests/string.test.ts".into(),
            "calls".into(),
            "inferred".into()
        )),
        "{min:?}"
    );
    let parse = callers(&impact(srv.addr, "src/v3/types.ZodType.parse"));
    assert!(parse.contains("src/v3/tests/string.test.ts"), "{parse:?}");
    assert!(
        !parse.contains("src/v4/classic/tests/bigint.test.ts"),
        "{parse:?}"
    );
}

#[test]
fn a_value_typed_by_an_interface_calls_the_interface_s_member_not_a_guess() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    interfaces(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let inferred = |who: &str| (who.to_string(), "calls".to_string(), "inferred".to_string());
    // `this.atom_: IAtom`: the interface's method (its two overloads one member), a
    // function-typed property, and a method reached through `extends` and a return type.
    let changed = found(&impact(srv.addr, "src/atom.IAtom.reportChanged"));
    for who in ["src/use.Holder.touch", "src/use.chained"] {
        assert!(changed.contains(&inferred(who)), "{who}: {changed:?}");
    }
    let hook = found(&impact(srv.addr, "src/atom.IAtom.onBecome"));
    assert!(hook.contains(&inferred("src/use.Holder.hook")), "{hook:?}");
    // A name an object pattern binds holds that property of what it destructures: `this`'s,
    // or a parameter's typed by an interface.
    for who in ["src/use.Holder.viaThis", "src/use.Holder.renamed"] {
        assert!(hook.contains(&inferred(who)), "{who}: {hook:?}");
    }
    assert!(
        changed.contains(&inferred("src/use.viaProps")),
        "{changed:?}"
    );
    // What indexing an instance gives: a member named by a constant, an index signature.
    assert!(
        changed.contains(&inferred("src/use.viaComputed")),
        "{changed:?}"
    );
    assert!(hook.contains(&inferred("src/use.Box.poke")), "{hook:?}");
    let indexed = found(&impact(srv.addr, "src/atom.Atom.reportChanged"));
    assert!(
        indexed.contains(&inferred("src/use.viaIndex")),
        "{indexed:?}"
    );
    // An element of the container a method returns (`all(): Array<Atom>`), directly or
    // through a local holding it.
    for who in ["src/use.viaReturned", "src/use.viaHeld"] {
        assert!(indexed.contains(&inferred(who)), "{who}: {indexed:?}");
    }
    // The class implementing it is not what the typed call names; an untyped receiver's
    // guess still goes to the class's method, never to a signature, when the class has every
    // member of each interface declaring the name.
    let atom = found(&impact(srv.addr, "src/atom.Atom.reportChanged"));
    assert!(
        !atom
            .iter()
            .any(|(who, _, _)| who.starts_with("src/use.Holder")),
        "{atom:?}"
    );
    assert!(
        atom.contains(&(
            "src/use.untyped".to_string(),
            "calls".to_string(),
            "name_match".to_string()
        )),
        "{atom:?}"
    );
    // Unless a shape declaring the name is one the class does not have (`Sink` wants `flush`
    // too): the untyped value may be any object of that shape, so there is no guess.
    let pool = found(&impact(srv.addr, "src/atom.Pool.drain"));
    assert!(
        !pool.iter().any(|(who, _, _)| who == "src/use.untypedDrain"),
        "{pool:?}"
    );
    // An interface merged into the class of its name (declared after it) does not hide it.
    let made = (
        "src/use.made".to_string(),
        "calls".to_string(),
        "exact".to_string(),
    );
    assert!(atom.contains(&made), "{atom:?}");
    // An interface's `extends` is `inherits`; a class's `implements` is not (a type it is
    // checked against, not where its members come from).
    let iface = found(&impact(srv.addr, "src/atom.IAtom"));
    let inherits = |who: &str| {
        iface
            .iter()
            .any(|(w, via, _)| w == who && via == "inherits")
    };
    assert!(inherits("src/atom.INamed"), "{iface:?}");
    assert!(!inherits("src/atom.Atom"), "{iface:?}");
}

#[test]
fn a_callback_in_an_options_object_is_typed_by_the_member_and_a_function_type_alias() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    options_callbacks(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let edge = |who: &str, confidence: &str| {
        (who.to_string(), "calls".to_string(), confidence.to_string())
    };
    // `middleware: (gDM) => gDM().concat()`: `gDM` is what `StoreOptions.middleware` takes, a
    // `GetDefaults`, whose call returns a `Tuple`.
    let concat = found(&impact(srv.addr, "src/tuple.Tuple.concat"));
    assert!(
        concat.contains(&edge("src/app.makeStore", "inferred")),
        "{concat:?}"
    );
    // The same callback written as a method of the object.
    assert!(
        concat.contains(&edge("src/app.shorthand.middleware", "inferred")),
        "{concat:?}"
    );
    // A property the parameter's type does not have types nothing: a name-only guess at most.
    assert!(
        !concat.contains(&edge("src/app.noSuchMember", "inferred")),
        "{concat:?}"
    );
    // A callback passed directly, its parameter declared as a `GetDefaults`.
    let prepend = found(&impact(srv.addr, "src/tuple.Tuple.prepend"));
    assert!(
        prepend.contains(&edge("src/app.direct", "inferred")),
        "{prepend:?}"
    );
    // A callback's parameter destructured: `tuple` is `Context.tuple`.
    assert!(
        prepend.contains(&edge("src/app.destructured", "inferred")),
        "{prepend:?}"
    );
    // The options typed by an object type alias (`type EnhanceOptions = { ... }`), whose
    // members are an interface's.
    assert!(
        prepend.contains(&edge("src/app.viaObjectType", "inferred")),
        "{prepend:?}"
    );
}

#[test]
fn a_static_field_holding_a_function_is_called_as_that_function() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    held_functions(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let parse = found(&impact(srv.addr, "src/schema.Schema.parse"));
    for who in ["src/use.viaStatic", "src/use.viaExport"] {
        let inferred = (who.to_string(), "calls".to_string(), "inferred".to_string());
        assert!(parse.contains(&inferred), "{who}: {parse:?}");
    }
    let create = found(&impact(srv.addr, "src/schema.createSchema"));
    assert!(
        create
            .iter()
            .any(|(who, via, _)| who == "src/use.viaStatic" && via == "calls"),
        "{create:?}"
    );
}

#[test]
fn guards_narrow_conditions_branches_and_the_rest_of_a_block_and_type_parameters_their_bound() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    narrowed(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let inferred = |who: &str| (who.to_string(), "calls".to_string(), "inferred".to_string());
    let element_inline = found(&impact(srv.addr, "src/nodes.ElementNode.isInline"));
    let text_inline = found(&impact(srv.addr, "src/nodes.TextNode.isInline"));
    // `$isElementNode(n) && n.isInline()`: the element's, not the text node's.
    assert!(
        element_inline.contains(&inferred("src/use.viaAnd")),
        "{element_inline:?}"
    );
    assert!(
        !text_inline.iter().any(|(who, ..)| who == "src/use.viaAnd"),
        "{text_inline:?}"
    );
    // `!$isTextNode(n) || n.isInline()`: right of `||`, `n` is a text node.
    assert!(
        text_inline.contains(&inferred("src/use.viaOr")),
        "{text_inline:?}"
    );
    assert!(
        !element_inline
            .iter()
            .any(|(who, ..)| who == "src/use.viaOr"),
        "{element_inline:?}"
    );
    // `n: InlineNode`, an alias of `ElementNode | TextNode` imported from another file: either.
    for callers in [&element_inline, &text_inline] {
        assert!(
            callers.contains(&inferred("src/use.viaAlias")),
            "{callers:?}"
        );
    }
    // After `if ($isElementNode(n)) return;`, `n` is not narrowed: no element method.
    assert!(
        !element_inline
            .iter()
            .any(|(who, ..)| who == "src/use.notNarrowed"),
        "{element_inline:?}"
    );
    let format = found(&impact(srv.addr, "src/nodes.TextNode.getFormat"));
    // Two callbacks of one function binding `n`, each its own: the second is a text node. A
    // parameter typed by an object type: its members (`record.node`, destructured too).
    for who in [
        "src/use.twoCallbacks",
        "src/use.twoTyped",
        "src/use.viaObjectType",
    ] {
        assert!(format.contains(&inferred(who)), "{who}: {format:?}");
    }
    for who in [
        "src/use.viaTernary",
        "src/use.viaElse",
        "src/use.viaThis",
        "src/use.Caret.format",
    ] {
        assert!(format.contains(&inferred(who)), "{who}: {format:?}");
    }
    let first_child = found(&impact(srv.addr, "src/nodes.ElementNode.getFirstChild"));
    // `ChildCaret<T extends ElementNode> extends BaseCaret<T>`: the base's `at: T` is bound
    // by the subclass's `T`.
    for who in [
        "src/use.viaConstraint",
        "src/use.viaReturnedConstraint",
        "src/use.ChildCaret.first",
        "src/use.viaObjectType",
    ] {
        assert!(
            first_child.contains(&inferred(who)),
            "{who}: {first_child:?}"
        );
    }
    // After `if (!(n instanceof ElementNode)) return;`, `n` is an element (`exact`, as inside
    // `if (n instanceof ElementNode) {...}`).
    let exact = (
        "src/use.viaEarlyReturn".to_string(),
        "calls".to_string(),
        "exact".to_string(),
    );
    assert!(first_child.contains(&exact), "{first_child:?}");
    // `const handlers: Handlers = { onText: (n) => n.getFormat(), ... }`: each callback's
    // parameter is what that member of `Handlers` takes (the calls are the module's).
    // A generic member (`onInline: <N extends ElementNode>(n: N) => boolean`): its bound.
    for callers in [&format, &first_child, &element_inline] {
        assert!(callers.contains(&inferred("src/use.ts")), "{callers:?}");
    }
    // A narrowed name called itself (`$isTextNode(go) && go()`) still calls that function.
    let go = found(&impact(srv.addr, "src/use.go"));
    assert!(
        go.iter()
            .any(|(who, via, _)| who == "src/use.callsGuarded" && via == "calls"),
        "{go:?}"
    );
}

/// A call on a value of unknown type is guessed by name only to a function a receiver can
/// reach: an object literal's method, a namespace's function, a function put in an object
/// (`export const helpers = { wrapIn }`, `exports.lift = lift`). A function declared by name
/// that no object holds is reached only by its name (prosemirror-transform's
/// `match.findWrapping()` on a library's value is not the module function `findWrapping`).
#[test]
fn a_call_on_an_unknown_receiver_is_no_guess_at_a_function_no_object_holds() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q", "-b", "main"]);
    let files = [
        (
            "src/structure.ts",
            "export function findWrapping(x: number) { return x; }\n\n\
             export function wrapIn(x: number) { return x; }\n\n\
             function liftTarget(x: number) { return x; }\n\n\
             export const helpers = { wrapIn, lift: liftTarget };\n\n\
             export const api = {\n  fetchAll() { return 1; },\n};\n\n\
             export namespace Util {\n  export function flatten() { return 2; }\n}\n",
        ),
        (
            "src/replace.ts",
            "export function replace(match: any, h: any) {\n  match.findWrapping(1);\n  \
             h.wrapIn(2);\n  h.liftTarget(3);\n  h.fetchAll();\n  h.flatten();\n}\n",
        ),
    ];
    for (path, text) in files {
        write(repo.path(), path, text);
    }
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "fixture"]);
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let replace = "src/replace.replace".to_string();
    let none = callers(&impact(srv.addr, "src/structure.findWrapping"));
    assert!(!none.contains(&replace), "{none:?}");
    for reached in [
        "src/structure.wrapIn",
        "src/structure.liftTarget",
        "src/structure.fetchAll",
        "src/structure.flatten",
    ] {
        let guessed = callers(&impact(srv.addr, reached));
        assert!(guessed.contains(&replace), "{reached}: {guessed:?}");
    }
}
