//! The benches' statistics: medians and percentiles of timed samples, paired differences
//! between routes measured in the same rounds, and a process's CPU time from /proc.
#![allow(dead_code)]

use std::time::{Duration, Instant};

pub struct Row {
    pub name: String,
    pub n: usize,
    pub median: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub baseline: Option<Duration>,
    /// The median of the per-sample differences with the direct call, in ms (signed): each
    /// sample is paired with the direct one of the same round and position, so this cancels
    /// the machine's drift between rounds.
    pub paired: Option<f64>,
    /// The serving process's own CPU time (all threads, user + system) per measured call.
    pub cpu_per_call: Option<Duration>,
}

/// CPU time each thread of a process has used so far, from /proc's schedstat, which counts
/// nanoseconds (where /proc/PID/stat counts 10 ms ticks).
pub struct CpuSnapshot(std::collections::HashMap<std::ffi::OsString, u64>);

impl CpuSnapshot {
    pub fn of(pid: u32) -> CpuSnapshot {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("read /proc/PID/task");
        CpuSnapshot(
            tasks
                .filter_map(|t| {
                    let t = t.ok()?;
                    let stat = std::fs::read_to_string(t.path().join("schedstat")).ok()?;
                    Some((t.file_name(), stat.split_whitespace().next()?.parse().ok()?))
                })
                .collect(),
        )
    }

    /// CPU used since `self`, by the threads alive now: a thread that exited in between (an
    /// idle blocking-pool thread) must not make the total go backwards.
    pub fn since(&self, pid: u32) -> Duration {
        let now = CpuSnapshot::of(pid);
        let ns: u64 = now
            .0
            .iter()
            .map(|(tid, ns)| ns.saturating_sub(self.0.get(tid).copied().unwrap_or(0)))
            .sum();
        Duration::from_nanos(ns)
    }
}

/// Runs `f` once: its result, how long it took, and the CPU process `pid` used meanwhile.
pub fn timed<T>(pid: u32, f: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let cpu = CpuSnapshot::of(pid);
    let t = Instant::now();
    let out = f();
    let took = t.elapsed();
    (out, took, cpu.since(pid))
}

pub fn row(name: impl Into<String>, mut samples: Vec<Duration>, baseline: Option<Duration>) -> Row {
    samples.sort();
    let n = samples.len();
    let median = if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2
    };
    let p90 = samples[(n * 9 / 10).min(n - 1)];
    let p99 = samples[(n * 99 / 100).min(n - 1)];
    Row {
        name: name.into(),
        n,
        median,
        p90,
        p99,
        baseline,
        paired: None,
        cpu_per_call: None,
    }
}

/// A row measured in the same rounds as `direct` (whose median is `direct_median`).
pub fn compared(
    name: impl Into<String>,
    samples: Vec<Duration>,
    direct: &[Duration],
    direct_median: Duration,
) -> Row {
    let mut diffs: Vec<f64> = samples
        .iter()
        .zip(direct)
        .map(|(s, d)| (s.as_secs_f64() - d.as_secs_f64()) * 1e3)
        .collect();
    diffs.sort_by(f64::total_cmp);
    let n = diffs.len();
    let paired = if n % 2 == 1 {
        diffs[n / 2]
    } else {
        (diffs[n / 2 - 1] + diffs[n / 2]) / 2.0
    };
    Row {
        paired: Some(paired),
        ..row(name, samples, Some(direct_median))
    }
}

pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}
