//! One OS thread at the lowest scheduling priority (`SCHED_IDLE` on Linux) for the workers'
//! blocking work: the mail composer and delivery sessions (drawing turn-card pictures costs
//! milliseconds of CPU per mail) and the bots' search. Under load the HTTP API should get the CPU
//! first and the workers catch up when the load drops (mail and bot moves are asynchronous anyway).
//! [`Background::start_normal`] gives the mail side's catch-up thread
//! (`crate::worker_threads::overdue_catch_up`), which works only when mail has waited too long, at
//! normal priority: a thread cannot leave `SCHED_IDLE` again without privileges, so it is one from
//! the start.

use std::sync::mpsc;

type Job = Box<dyn FnOnce() + Send>;

/// A thread that runs jobs one after another at low priority; it ends when this is dropped.
pub struct Background {
    jobs: mpsc::Sender<Job>,
}

impl Background {
    /// Starts the thread.
    ///
    /// # Errors
    /// The operating system refused a new thread.
    pub fn start(name: &str) -> std::io::Result<Self> {
        Self::spawn(name, true)
    }

    /// Starts the thread at normal priority (for work that must not be starved).
    ///
    /// # Errors
    /// The operating system refused a new thread.
    pub fn start_normal(name: &str) -> std::io::Result<Self> {
        Self::spawn(name, false)
    }

    fn spawn(name: &str, low: bool) -> std::io::Result<Self> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                if low {
                    lower_priority();
                }
                for job in queue {
                    job();
                }
            })?;
        Ok(Self { jobs })
    }

    /// Runs `work` on the thread and waits for its result without blocking the async runtime;
    /// `None` if the thread is gone.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, result) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = answer.send(work());
            }))
            .ok()?;
        result.await.ok()
    }
}

/// `SCHED_IDLE` where the system has it: Linux still gives such a thread a small share of the
/// CPU (it is never starved outright), and any ordinary thread that wakes up takes the CPU from
/// it at once — also across scheduling groups, where a low niceness alone counts only against
/// the server's own threads (with autogrouping every PostgreSQL backend is a group of its own,
/// so a merely nice mail thread still took a tenth of the machine under load). Elsewhere the
/// lowest niceness; where neither is allowed, the thread runs at normal priority.
fn lower_priority() {
    use thread_priority::{set_current_thread_priority, ThreadPriority};
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use thread_priority::{
            set_thread_priority_and_policy, thread_native_id, NormalThreadSchedulePolicy,
            ThreadSchedulePolicy,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle).is_ok() {
            return;
        }
    }
    if let Err(error) = set_current_thread_priority(ThreadPriority::Min) {
        tracing::debug!(?error, "mail worker keeps normal priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_in_order_on_one_thread() {
        let background = Background::start("test-background").unwrap();
        let first = background
            .run(|| std::thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert_eq!(first.as_deref(), Some("test-background"));
        let mut results = Vec::new();
        for i in 0..5 {
            results.push(background.run(move || i * 2).await.unwrap());
        }
        assert_eq!(results, [0, 2, 4, 6, 8]);
    }

    /// The catch-up threads must be ordinary threads: one started low could never be raised
    /// again without privileges.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_normal_thread_is_ordinary_and_a_background_thread_idles() {
        use thread_priority::{
            thread_schedule_policy, NormalThreadSchedulePolicy, ThreadSchedulePolicy,
        };
        let policy = |background: Background| async move {
            background
                .run(|| thread_schedule_policy().unwrap())
                .await
                .unwrap()
        };
        assert_eq!(
            policy(Background::start_normal("test-normal").unwrap()).await,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)
        );
        assert_eq!(
            policy(Background::start("test-idle").unwrap()).await,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle)
        );
    }
}
