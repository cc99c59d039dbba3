//! Test support (feature `test-support`): a small disk that a test can fill up and free
//! again, to check what the store and the server do when writes fail for real.
//!
//! When the process may mount file systems (root, as on the CI machines), the disk is a
//! tmpfs of the given size and "full" means a filler file took every free byte: SQLite then
//! fails with "database or disk is full", usually at COMMIT, exactly as on a real full disk.
//! Otherwise it is a plain temporary folder and "full" means the process's file size limit
//! (`RLIMIT_FSIZE`) was lowered to the size of the largest file in it, so no file there can
//! grow (SIGXFSZ is ignored, so the write fails instead of killing the process); that limit
//! is process-wide, so a test using it must be the only test in its binary. Set
//! `PLY_SMALL_DISK=fsize` to use the file size limit even where tmpfs would work.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A folder whose disk can be made full and freed again.
#[derive(Debug)]
pub struct SmallDisk {
    dir: tempfile::TempDir,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Tmpfs { filler: PathBuf },
    FileSizeLimit { original: (u64, u64), _ignore_sigxfsz: tokio::signal::unix::Signal },
}

impl SmallDisk {
    /// A disk of about `kib` KiB (tmpfs), or a temporary folder whose fullness is the file
    /// size limit. Must be called inside a tokio runtime.
    ///
    /// # Panics
    /// When no temporary folder can be made, or neither mechanism is available.
    #[must_use]
    pub fn new(kib: u64) -> SmallDisk {
        let dir = tempfile::tempdir().expect("a temporary folder");
        // `PLY_SMALL_DISK=fsize` picks the file size limit even where tmpfs would work.
        let fsize = std::env::var("PLY_SMALL_DISK").is_ok_and(|v| v == "fsize");
        let mounted = !fsize
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={kib}k,mode=0700"), "tmpfs"])
                .arg(dir.path())
                .output()
                .is_ok_and(|o| o.status.success());
        let kind = if mounted {
            Kind::Tmpfs { filler: dir.path().join("filler") }
        } else {
            let signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::from_raw(
                25, // SIGXFSZ on Linux: ignore it, so an over-long write fails with EFBIG
            ))
            .expect("a handler for SIGXFSZ");
            let original = rlimit::getrlimit(rlimit::Resource::FSIZE).expect("RLIMIT_FSIZE");
            Kind::FileSizeLimit { original, _ignore_sigxfsz: signal }
        };
        SmallDisk { dir, kind }
    }

    /// The folder on the disk.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// How "full" is made: `"tmpfs"` or `"file size limit"`.
    #[must_use]
    pub fn mechanism(&self) -> &'static str {
        match self.kind {
            Kind::Tmpfs { .. } => "tmpfs",
            Kind::FileSizeLimit { .. } => "file size limit",
        }
    }

    /// Takes every free byte: no file on the disk can grow any more.
    ///
    /// # Panics
    /// When the disk cannot be filled.
    pub fn fill(&self) {
        match &self.kind {
            Kind::Tmpfs { filler } => {
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(filler)
                    .expect("the filler file");
                let block = vec![0u8; 4096];
                // Whole blocks, then single bytes, until the disk refuses.
                while file.write_all(&block).is_ok() {}
                while file.write_all(&block[..1]).is_ok() {}
                let _ = file.sync_all();
            }
            Kind::FileSizeLimit { original, .. } => {
                let largest = std::fs::read_dir(self.dir.path())
                    .expect("the folder")
                    .filter_map(|e| e.ok()?.metadata().ok())
                    .map(|m| m.len())
                    .max()
                    .unwrap_or(0);
                rlimit::setrlimit(rlimit::Resource::FSIZE, largest, original.1)
                    .expect("lower RLIMIT_FSIZE");
            }
        }
    }

    /// Gives the space back.
    ///
    /// # Panics
    /// When the filler cannot be removed or the limit restored.
    pub fn free(&self) {
        match &self.kind {
            Kind::Tmpfs { filler } => {
                if filler.exists() {
                    std::fs::remove_file(filler).expect("remove the filler");
                }
            }
            Kind::FileSizeLimit { original, .. } => {
                rlimit::setrlimit(rlimit::Resource::FSIZE, original.0, original.1)
                    .expect("restore RLIMIT_FSIZE");
            }
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        self.free();
        if let Kind::Tmpfs { .. } = self.kind {
            // Lazily, in case a database connection still holds a file open.
            let _ = Command::new("umount").arg("-l").arg(self.dir.path()).output();
        }
    }
}
