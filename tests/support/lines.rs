//! A spawned server spoken to in raw JSON-RPC lines over stdio, every message it writes read by
//! a thread, so a test can wait for an answer or a notification and fail instead of hanging.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long one answer or notification may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(60);

pub struct Lines {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    next: u64,
}

impl Lines {
    /// Spawns `cmd` with piped stdin/stdout (stderr inherited).
    pub fn spawn(cmd: &mut Command) -> Lines {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Lines {
            child,
            stdin,
            messages,
            next: 1,
        }
    }

    /// `initialize` (2025-11-25, no client capabilities) and `notifications/initialized`: the
    /// answer to `initialize`.
    pub fn initialize(&mut self) -> Value {
        let answer = self.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        answer
    }

    pub fn send(&mut self, msg: Value) {
        writeln!(self.stdin, "{msg}").expect("write to the server's stdin");
        self.stdin.flush().expect("flush the server's stdin");
    }

    /// The whole JSON-RPC response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.next_where(|v| v["id"] == id)
    }

    /// The next message `matches` accepts (others are skipped).
    pub fn next_where(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self
                .messages
                .recv_timeout(WAIT)
                .expect("the server writes what the test waits for within a minute");
            if matches(&v) {
                return v;
            }
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
