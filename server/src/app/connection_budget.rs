//! How many connections the server may hold open: fewer than the file descriptors the process
//! may open, so that the database, the mail sessions and the log always find one. Past the
//! budget the listener stops accepting (new clients wait in the kernel's backlog) instead of
//! failing on `Too many open files` and dropping them.

/// The file descriptors kept for everything that is not a client connection (the database
/// pool, SMTP and IMAP sessions, mail files, the log, the runtime's own).
const RESERVED_MIN: u64 = 64;

/// Raises the soft limit on open files to the hard limit (the most an unprivileged process may
/// ask for) and answers the soft limit then in force; `None` where there is no such limit.
#[must_use]
pub fn raise_open_files_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            let raised = rustix::process::Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            match setrlimit(Resource::Nofile, raised) {
                Ok(()) => {
                    tracing::debug!(from = ?limit.current, to = ?limit.maximum, "open files limit raised");
                    limit = getrlimit(Resource::Nofile);
                }
                Err(error) => tracing::warn!(%error, "cannot raise the open files limit"),
            }
        }
        limit.current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The connections each of `workers` may hold when the process may open `open_files` files:
/// the files less a reserve (an eighth, at least [`RESERVED_MIN`]), shared by the workers, at
/// least one each. Without a limit, actix's own default stands.
#[must_use]
pub fn per_worker(open_files: Option<u64>, workers: usize) -> Option<usize> {
    let open_files = open_files?;
    let reserved = (open_files / 8).max(RESERVED_MIN);
    let workers = u64::try_from(workers.max(1)).unwrap_or(u64::MAX);
    let each = open_files.saturating_sub(reserved) / workers;
    Some(usize::try_from(each).unwrap_or(usize::MAX).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_stay_below_the_open_files_limit() {
        assert_eq!(per_worker(Some(1024), 2), Some(448));
        assert_eq!(per_worker(Some(256), 2), Some(96));
        assert_eq!(per_worker(Some(256), 1), Some(192));
        assert_eq!(per_worker(Some(32), 4), Some(1), "never none at all");
        assert_eq!(per_worker(Some(1 << 20), 0), Some((1 << 20) - (1 << 17)));
        assert_eq!(per_worker(None, 2), None);
        for limit in [100_u64, 256, 1024, 4096, 65_536] {
            for workers in 1..=16 {
                let total = per_worker(Some(limit), workers).unwrap() as u64 * workers as u64;
                assert!(
                    total + RESERVED_MIN <= limit || total == workers as u64,
                    "{limit} {workers}"
                );
            }
        }
    }
}
