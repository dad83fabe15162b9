"""Drives nexus-rules (`nexus-mcp --surface nexus-rules`) with the official Python MCP SDK: the
agent's whole loop on a real git repository, with `nexus-mcp gate` (real ruff and bandit) as CI
runs it, all against one Nexus API (NEXUS_API_URL / NEXUS_API_TOKEN, set by tests/rules_surface.rs
to an in-process nexus-lite). By hand:

    NEXUS_API_URL=http://127.0.0.1:PORT NEXUS_API_TOKEN=... .venv/bin/python \
        tests/clients/rules_loop.py stdio --binary target/debug/nexus-mcp --repo /tmp/shop
    NEXUS_MCP_TEST_KEYS=shop-key,other-key .venv/bin/python tests/clients/rules_loop.py http \
        --url http://127.0.0.1:PORT/mcp

`stdio`: get_playbook -> a commit breaking a playbook rule and adding a bandit finding -> the
gate exits 1 -> get_gate_result (through use_capability) shows the violations -> fix ->
report_check -> the gate passes -> `nexus-mcp rules stats` shows the rule broken once and fixed;
then the honesty cases (no record, ambiguous prefix, capped answer, analyser missing, analyser
crashing) and a proposal a human accepts. `http`: keys bound to repositories see their own
records only. `playbook`: get_playbook on a path of a real project, paged to the end. Prints a
transcript of the calls; exits 0 when every expectation holds, otherwise prints `FAILED: ...`
and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import httpx2 as httpx
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from harness import expect, run, text_of

REPO = "acme/shop"
TYPED = {"get_playbook", "report_check", "get_rule", "use_capability", "list_capabilities"}
BROKEN = (
    "import subprocess\n\n\n"
    "def run(cmd):\n"
    "    print('running', cmd)\n"
    "    return subprocess.run(cmd, shell=True, check=True)\n"
)
FIXED = (
    "import logging\nimport subprocess\n\nlog = logging.getLogger(__name__)\n\n\n"
    "def run(cmd):\n"
    "    log.info('running %s', cmd)\n"
    "    return subprocess.run([cmd], check=True)\n"
)





def show(value, limit: int = 160) -> str:
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Agent:
    """An MCP session that prints each call and a cut of its answer (the README's transcript)."""

    def __init__(self, client: Client):
        self.client = client

    async def call(self, tool: str, args: dict) -> tuple[bool, dict]:
        result = await self.client.call_tool(tool, args)
        body = result.structured_content
        if body is None:
            body = json.loads(text_of(result) or "null")
        return result.is_error, body

    async def ok(self, tool: str, args: dict, keys: list[str]) -> dict:
        is_error, body = await self.call(tool, args)
        expect(not is_error, f"{tool} {args} failed: {show(body, 800)}")
        print(f"→ {tool} {show(args)}")
        print(f"← {show({k: body.get(k) for k in keys})}")
        return body

    async def err(self, tool: str, args: dict) -> dict:
        is_error, body = await self.call(tool, args)
        expect(is_error, f"{tool} {args} should fail, got {show(body, 800)}")
        error = body["error"]
        print(f"→ {tool} {show(args)}")
        print(f"← isError {show({k: error.get(k) for k in ('code', 'message')})}")
        return error

    async def capability(self, name: str, arguments: dict, keys: list[str]) -> dict:
        return await self.ok("use_capability", {"capability": name, "arguments": arguments}, keys)


def git(repo: str, *args: str) -> str:
    out = subprocess.run(
        ["git", "-C", repo, "-c", "user.name=agent", "-c", "user.email=agent@example.com", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def write(repo: str, rel: str, text: str) -> None:
    with open(os.path.join(repo, rel), "w", encoding="utf-8") as f:
        f.write(text)


def cli(binary: str, args: list[str], path: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([binary, *args], capture_output=True, text=True, env=env, timeout=300)


def gate(binary: str, repo: str, pr: int, path: str | None = None, json_out: bool = False):
    args = ["gate", "--base", "main", "--head", "HEAD", "--pr", str(pr), "--repo", repo, "--repository", REPO]
    out = cli(binary, args + (["--json"] if json_out else []), path)
    shown = "$ nexus-mcp " + " ".join(args[:7])
    print(f"{shown}  → exit {out.returncode}")
    return out


def violation(result: dict, rule_id: str) -> dict:
    found = [v for v in result.get("violations") or [] if v["ruleId"] == rule_id]
    expect(found, f"no {rule_id} violation in {show(result, 2000)}")
    return found[0]


async def the_loop(agent: Agent, binary: str, repo: str) -> None:
    tools = {t.name for t in (await agent.client.list_tools()).tools}
    expect(tools == TYPED, f"tools/list shows {sorted(tools)}, expected {sorted(TYPED)}")
    print(f"tools/list: {', '.join(sorted(tools))}")

    # 1. The playbook, once; the version hash answers `unchanged` afterwards.
    book = await agent.ok("get_playbook", {}, ["repository", "version", "unchanged"])
    ids = [r["ruleId"] for r in book["rules"]]
    for want in ["no-print", "AGENTS.md#testing", ".cursor/rules/python.mdc"]:
        expect(want in ids, f"get_playbook misses {want}: {ids}")
    cursor = next(r for r in book["rules"] if r["ruleId"] == ".cursor/rules/python.mdc")
    expect(cursor["globs"] == ["**/*.py", "src/**/*.{py,pyi}"], f"unquoted Cursor globs read as {cursor['globs']}")
    again = await agent.ok("get_playbook", {"sinceVersion": book["version"]}, ["unchanged", "version"])
    expect(again == {"unchanged": True, "version": book["version"]}, f"sinceVersion: {again}")
    caps = await agent.ok("list_capabilities", {}, ["capabilities"])
    names = {c["name"] for c in caps["capabilities"]}
    expect({"get_gate_result", "list_skills", "get_skill"} <= names, f"capabilities: {names}")
    expect("propose_rule" not in names, "propose_rule is listed without rules:propose")
    skills = await agent.capability("list_skills", {}, ["skills"])
    expect([s["name"] for s in skills["skills"]] == ["release"], f"skills: {skills['skills']}")
    skill = await agent.capability("get_skill", {"name": "release"}, ["name", "digest", "fetchCount"])
    expect("Bump the version" in skill["markdown"], f"get_skill: {skill}")

    # 2. No gate has run yet: found false with a reason, never an empty list.
    none = await agent.capability("get_gate_result", {}, ["found", "reason", "blocking"])
    expect(none["found"] is False and "nexus-mcp gate" in none["reason"], f"no record: {none}")
    expect(none["blocking"] is None and none["violations"] is None, f"no record claims a verdict: {none}")

    # 3. The agent commits a change that breaks no-print and runs a shell: CI's gate blocks.
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, "shop/app.py", BROKEN)
    git(repo, "commit", "-qam", "run commands")
    out = gate(binary, repo, 7)
    expect(out.returncode == 1, f"the gate should block (exit 1): {out.returncode}\n{out.stdout}\n{out.stderr}")
    expect("no-print" in out.stdout and "bandit:B602" in out.stdout, f"gate summary: {out.stdout}")
    head = git(repo, "rev-parse", "HEAD")

    # 4. get_gate_result through use_capability shows it.
    keys = ["found", "repo", "pr", "sha", "status", "blocking", "blockingCount", "violationCount", "violationsReturned", "detailComplete"]
    res = await agent.capability("get_gate_result", {"pr": 7}, keys)
    expect(res["found"] and res["repo"] == REPO and res["pr"] == 7 and res["sha"] == head, f"record: {show(res, 600)}")
    expect(res["blocking"] is True and res["detailComplete"] is True, f"verdict: {show(res, 600)}")
    expect(res["violationsReturned"] == res["violationCount"], f"counts: {show(res, 600)}")
    mine = violation(res, "no-print")
    expect((mine["path"], mine["line"], mine["severity"]) == ("shop/app.py", 5, "error"), f"no-print: {mine}")
    shell = violation(res, "bandit:B602")
    expect((shell["path"], shell["line"], shell["severity"]) == ("shop/app.py", 6, "error"), f"B602: {shell}")
    print(f"   violations: {show([(v['ruleId'], v['path'], v['line'], v['severity']) for v in res['violations']], 300)}")
    by_prefix = await agent.capability("get_gate_result", {"sha": head[:7].upper()}, ["found", "sha"])
    expect(by_prefix["found"] and by_prefix["sha"] == head, f"a 7-character upper-case prefix: {by_prefix}")
    capped = await agent.capability("get_gate_result", {"pr": 7, "limit": 1}, ["violationCount", "violationsReturned", "detailComplete"])
    expect(capped["violationsReturned"] == 1 < capped["violationCount"], f"capped: {show(capped, 600)}")
    rule = await agent.ok("get_rule", {"ruleId": "no-print"}, ["kind", "known"])
    expect("logging" in rule["rule"]["body"], f"get_rule: {rule}")
    await agent.ok("get_rule", {"ruleId": "bandit:B602"}, ["kind", "known"])
    near = await agent.err("get_rule", {"ruleId": "no-prnt"})
    expect(near["code"] == "RULE_NOT_FOUND" and "no-print" in near["message"], f"near match: {near}")

    # 5. The fix, self-checked before the commit, then the gate passes.
    write(repo, "shop/app.py", FIXED)
    check = await agent.ok(
        "report_check",
        {
            "sessionId": "feature",
            "agentName": "test-agent",
            "modelId": "test-model",
            "results": [
                {"ruleId": "no-print", "pass": True},
                {"ruleId": "AGENTS.md#testing", "pass": True, "note": "pytest ran"},
                {"ruleId": "not-a-rule", "pass": True},
            ],
        },
        ["status", "treeSha", "unknownRuleIds"],
    )
    expect(check["status"] == "claimed" and check["unknownRuleIds"] == ["not-a-rule"], f"report_check: {check}")
    git(repo, "commit", "-qam", "log instead of print, no shell")
    expect(git(repo, "rev-parse", "HEAD^{tree}") == check["treeSha"], "the check described another tree than the commit")
    out = gate(binary, repo, 7, json_out=True)
    expect(out.returncode == 0, f"the fixed change should pass: {out.returncode}\n{out.stdout}\n{out.stderr}")
    passed = await agent.capability("get_gate_result", {"pr": 7}, ["sha", "status", "blocking", "violationCount"])
    expect(passed["status"] == "ok" and passed["blocking"] is False and passed["violationCount"] == 0, f"pass: {passed}")

    # 6. Stats: no-print broken once, fixed once, and the claim witnessed by the gate.
    stats = cli(binary, ["rules", "stats", "--json", "--repo", repo, "--repository", REPO])
    expect(stats.returncode == 0, f"rules stats: {stats.stderr}")
    rows = {r["ruleId"]: r for r in json.loads(stats.stdout)["rules"]}
    row = rows.get("no-print") or {}
    expect(row.get("timesBroken") == 1 and row.get("timesFixed") == 1, f"no-print stats: {row}")
    expect(row.get("witnessed", 0) >= 1, f"the gate on the same tree did not witness the claim: {row}")
    table = cli(binary, ["rules", "stats", "--repo", repo, "--repository", REPO])
    print("$ nexus-mcp rules stats")
    print(table.stdout.rstrip())
    return json.loads(out.stdout)["record"]


async def honesty(agent: Agent, binary: str, repo: str, record: dict) -> None:
    # An ambiguous prefix lists its candidates and picks none (records stored through the API).
    token, url = os.environ["NEXUS_API_TOKEN"], os.environ["NEXUS_API_URL"].rstrip("/")
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        for tail in ("1" * 33, "2" * 33):
            r = await http.post(f"{url}/api/v1/rules/gate-results", json={**record, "headSha": "abcdef1" + tail, "pr": None})
            expect(r.status_code in (200, 201), f"storing a record: {r.status_code} {r.text}")
    amb = await agent.capability("get_gate_result", {"sha": "ABCDEF1"}, ["found", "reason"])
    expect(amb["found"] is False and len(amb.get("candidates") or []) == 2, f"ambiguous: {show(amb, 800)}")

    # A missing analyser: never clean. A clean change, bandit absent: blocking unknown.
    bins = tempfile.mkdtemp()
    for tool in ("git", "ruff"):
        os.symlink(shutil.which(tool), os.path.join(bins, tool))
    git(repo, "checkout", "-q", "-b", "docs", "main")
    write(repo, "shop/util.py", "def double(x: int) -> int:\n    return 2 * x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "double")
    out = gate(binary, repo, 8, path=bins)
    expect(out.returncode != 0, f"a gate missing bandit must not pass: {out.stdout}")
    miss = await agent.capability("get_gate_result", {"pr": 8}, ["status", "blocking", "detailComplete"])
    expect(miss["blocking"] is None and miss["detailComplete"] is False and miss["status"] != "ok", f"missing: {show(miss, 800)}")
    tools = {t["name"]: t["status"] for t in miss["tools"]}
    expect(tools.get("bandit") == "missing", f"bandit should be reported missing: {tools}")

    # A crashing analyser: not clean either.
    crash = os.path.join(bins, "bandit")
    with open(crash, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\necho 'bandit: internal error' >&2\nexit 2\n")
    os.chmod(crash, 0o755)
    out = gate(binary, repo, 9, path=bins)
    expect(out.returncode != 0, f"a gate whose bandit crashed must not pass: {out.stdout}")
    crashed = await agent.capability("get_gate_result", {"pr": 9}, ["status", "blocking", "detailComplete"])
    expect(crashed["blocking"] is None and crashed["detailComplete"] is False, f"crash: {show(crashed, 800)}")
    expect({t["name"]: t["status"] for t in crashed["tools"]}.get("bandit") == "failed", f"crash tools: {crashed['tools']}")


async def proposals(binary: str, repo: str, env: dict) -> None:
    params = StdioServerParameters(
        command=binary,
        args=["--surface", "nexus-rules", "serve", "--scopes", "rules:read,rules:propose"],
        env=env,
    )
    async with Client(params, read_timeout_seconds=120) as client:
        agent = Agent(client)
        queued = await agent.capability(
            "propose_rule",
            {"title": "No bare except", "body": "Catch the exception you expect.", "severity": "warning", "rationale": "seen three times"},
            ["duplicate"],
        )
        p = queued["proposal"]
        expect(p["status"] == "queued" and p["aiGenerated"] is True, f"proposal: {p}")
        again = await agent.capability("propose_rule", {"title": "No bare except", "body": "Catch the exception you expect."}, ["duplicate"])
        expect(again["duplicate"] is True, f"the same proposal twice: {again}")
        book = await agent.ok("get_playbook", {}, ["version"])
        expect(all("bare except" not in r["title"].lower() for r in book["rules"]), "a proposal reached the playbook unreviewed")
    listed = cli(binary, ["rules", "review", "--repo", repo, "--repository", REPO])
    expect(p["proposalId"] in listed.stdout, f"rules review: {listed.stdout}\n{listed.stderr}")
    accepted = cli(binary, ["rules", "review", "accept", p["proposalId"], "--repo", repo, "--repository", REPO, "--by", "lead"])
    expect(accepted.returncode == 0, f"accept: {accepted.stdout}\n{accepted.stderr}")
    written = [line.split("wrote ", 1)[1] for line in accepted.stdout.splitlines() if "wrote " in line]
    expect(written and os.path.isfile(os.path.join(repo, written[0])), f"accept wrote nothing: {accepted.stdout}")
    print("$ nexus-mcp rules review accept …")
    print(accepted.stdout.rstrip())


async def run_stdio(args: argparse.Namespace) -> None:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "NEXUS_API_URL", "NEXUS_API_TOKEN")}
    params = StdioServerParameters(command=args.binary, args=["--surface", "nexus-rules", "serve"], env=env)
    async with Client(params, read_timeout_seconds=120) as client:
        agent = Agent(client)
        record = await the_loop(agent, args.binary, args.repo)
        await honesty(agent, args.binary, args.repo, record)
    await proposals(args.binary, args.repo, env)


async def run_http(args: argparse.Namespace) -> None:
    shop_key, other_key = os.environ["NEXUS_MCP_TEST_KEYS"].split(",")

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {shop_key}"}) as http:
        async with Client(streamable_http_client(args.url, http_client=http), read_timeout_seconds=120) as client:
            agent = Agent(client)
            mine = await agent.capability("get_gate_result", {}, ["found", "repo", "pr", "sha"])
            expect(mine["found"] and mine["repo"] == REPO, f"the shop key sees the shop's record: {show(mine, 600)}")
            await agent.ok("get_playbook", {}, ["repository", "version"])
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {other_key}"}) as http:
        async with Client(streamable_http_client(args.url, http_client=http), read_timeout_seconds=120) as client:
            agent = Agent(client)
            theirs = await agent.capability("get_gate_result", {"repo": REPO}, ["found", "reason"])
            expect(theirs["found"] is False and theirs["violations"] is None, f"out of scope: {show(theirs, 600)}")
            expect("key" in theirs["reason"] and REPO in theirs["reason"], f"the reason does not say why: {theirs['reason']}")
            newest = await agent.capability("get_gate_result", {}, ["found", "reason"])
            expect(newest["found"] is False, f"the other key sees someone's record: {show(newest, 600)}")
            denied = await agent.err("get_playbook", {"repository": REPO})
            expect(denied["code"] == "REPOSITORY_NOT_VISIBLE", f"playbook of an unseen repository: {denied}")


async def run_playbook(args: argparse.Namespace) -> None:
    """get_playbook for one path of a real project: the rule written for that path first, and
    every rule the Nexus selects reachable through nextCursor, in order, each once."""
    token, url = os.environ["NEXUS_API_TOKEN"], os.environ["NEXUS_API_URL"].rstrip("/")
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        r = await http.get(f"{url}/api/v1/rules/playbook", params={"path": args.path})
        expect(r.status_code == 200, f"the Nexus playbook: {r.status_code} {r.text}")
        want = [rule["ruleId"] for rule in r.json()["rules"]]
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "NEXUS_API_URL", "NEXUS_API_TOKEN")}
    params = StdioServerParameters(command=args.binary, args=["--surface", "nexus-rules", "serve"], env=env)
    async with Client(params, read_timeout_seconds=120) as client:
        agent = Agent(client)
        page = await agent.ok("get_playbook", {"path": args.path}, ["version", "nextCursor", "truncation"])
        expect(page["rules"][0]["ruleId"] == args.first, f"first rule: {show(page['rules'][0], 300)}")
        expect(page.get("truncation"), "the first page was not cut: the test no longer pages")
        got = [rule["ruleId"] for rule in page["rules"]]
        pages = 1
        while page.get("nextCursor"):
            expect(pages < len(want) + 1, f"no end to the pages after {pages}")
            page = await agent.ok("get_playbook", {"path": args.path, "cursor": page["nextCursor"]}, ["nextCursor"])
            got += [rule["ruleId"] for rule in page["rules"]]
            pages += 1
        expect(got == want, f"through {pages} pages: {got}, the Nexus selects {want}")
        print(f"{len(got)} rules in {pages} pages, {args.first} first")


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="transport", required=True)
    s = sub.add_parser("stdio")
    s.add_argument("--binary", required=True)
    s.add_argument("--repo", required=True)
    h = sub.add_parser("http")
    h.add_argument("--url", required=True)
    b = sub.add_parser("playbook")
    b.add_argument("--binary", required=True)
    b.add_argument("--path", required=True)
    b.add_argument("--first", required=True)
    args = p.parse_args()
    return run(args, {"stdio": run_stdio, "http": run_http, "playbook": run_playbook}, "nexus-rules")


if __name__ == "__main__":
    sys.exit(main())
