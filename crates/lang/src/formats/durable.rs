//! When a write must wait for the disk: the rule behind [`fs::Replacement`]'s commit.
//!
//! A write goes to a temporary file that is renamed over the target once complete, and a
//! rename is atomic: a killed process, a failed write or a full disk leave the old file
//! whole without any sync. Only a power loss (or a kernel crash) can do worse, by making the
//! rename durable before the new file's data: the target would then be empty where the old
//! contents were. So the new data is synced before the rename only where that can happen:
//!
//! - **A new file** is never synced: there is no old file to lose.
//! - **tmpfs and ramfs** lose everything on a power loss, synced or not.
//! - **ext4** (the kernel's driver for ext3/ext4) mounted with its defaults (`data=ordered`,
//!   `auto_da_alloc`) already writes a file's data before it commits a rename of that file
//!   over another one — its documentation names this very pattern — so a sync would wait
//!   for what the journal orders anyway.
//! - **Anything else** (XFS, btrfs, NFS, ext4 with `data=writeback` or `noauto_da_alloc`,
//!   a system other than Linux): the data is synced (`fdatasync`) before the rename.
//!
//! A writer that knows its size up front reserves the file's blocks first (`fallocate`),
//! which spares the filesystem its per-page bookkeeping of delayed
//! allocation and halves the time of a large write on ext4. Except for the one case where
//! that delayed allocation is the safety: ext4's ordering of a rename after the data covers
//! only blocks allocated late, and a reserved block reads as zeros until its data is
//! written, so a file replaced on ext4 without a sync is not reserved.
//!
//! The directory is not synced after the rename: that would make the new name durable, not
//! the old contents safe (after a power loss the old file may come back instead of the new,
//! never neither), and on ext4 it waits for the whole journal commit, the data included.
//!
//! The replaced file itself is freed after the rename on a thread of its own
//! (`fs::release_later`): on ext4 freeing it waits for its own writes to reach the disk.
//!
//! [`fs::Replacement`]: super::fs::Replacement

use std::path::Path;

/// How a filesystem treats a rename over an existing file, as far as the rule needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filesystem {
    /// Held in memory only (tmpfs, ramfs): nothing survives a power loss.
    Volatile,
    /// Writes a file's data before committing its rename over another file (ext4's
    /// defaults).
    OrdersRenames,
    /// Anything else, or unknown.
    Other,
}

/// What a replacement does besides writing and renaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Sync the new contents (`fdatasync`) before the rename.
    pub sync: bool,
    /// Reserve the new file's blocks up front when its size is known.
    pub preallocate: bool,
}

/// The plan for a write: `replaces` is whether a file is there now, `fs` the filesystem of
/// its folder.
pub fn plan(replaces: bool, fs: Filesystem) -> Plan {
    match (replaces, fs) {
        (true, Filesystem::Other) => Plan {
            sync: true,
            preallocate: true,
        },
        // Delayed allocation is what orders the rename after the data.
        (true, Filesystem::OrdersRenames) => Plan {
            sync: false,
            preallocate: false,
        },
        _ => Plan {
            sync: false,
            preallocate: true,
        },
    }
}

/// The filesystem the folder `dir` is on.
#[cfg(target_os = "linux")]
pub fn filesystem(dir: &Path) -> Filesystem {
    use std::os::unix::fs::MetadataExt;
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    const RAMFS_MAGIC: i64 = 0x8584_58f6;
    const EXT4_SUPER_MAGIC: i64 = 0xEF53;
    let Ok(st) = rustix::fs::statfs(dir) else {
        return Filesystem::Other;
    };
    #[allow(clippy::unnecessary_cast)] // the field's width differs between architectures
    match st.f_type as i64 {
        TMPFS_MAGIC | RAMFS_MAGIC => Filesystem::Volatile,
        EXT4_SUPER_MAGIC => {
            let dev = match std::fs::metadata(dir) {
                Ok(meta) => meta.dev(),
                Err(_) => return Filesystem::Other,
            };
            let id = (rustix::fs::major(dev), rustix::fs::minor(dev));
            match std::fs::read_to_string("/proc/self/mountinfo") {
                Ok(text) if ext4_orders_renames(&text, id) => Filesystem::OrdersRenames,
                _ => Filesystem::Other,
            }
        }
        _ => Filesystem::Other,
    }
}

#[cfg(not(target_os = "linux"))]
pub fn filesystem(_dir: &Path) -> Filesystem {
    Filesystem::Other
}

/// True when `/proc/self/mountinfo` (its text) shows the ext4 filesystem of device `id`
/// (major, minor) mounted with the journal ordering data before metadata and with
/// `auto_da_alloc` on: neither `data=writeback` nor `noauto_da_alloc`, and a journal
/// (ext2 has none). A device it does not list is not trusted.
pub fn ext4_orders_renames(mountinfo: &str, id: (u32, u32)) -> bool {
    let device = format!("{}:{}", id.0, id.1);
    let mut found = false;
    for line in mountinfo.lines() {
        let mut fields = line.split(' ');
        if fields.nth(2) != Some(device.as_str()) {
            continue;
        }
        // After the optional fields: "- fstype source super_options".
        let mut rest = fields.skip_while(|&f| f != "-").skip(1);
        let (Some(fstype), Some(_source), Some(options)) = (rest.next(), rest.next(), rest.next())
        else {
            return false;
        };
        if fstype != "ext4" && fstype != "ext3" {
            return false;
        }
        let unsafe_option = options
            .split(',')
            .any(|o| o == "data=writeback" || o == "noauto_da_alloc");
        if unsafe_option {
            return false;
        }
        found = true;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_old_file_on_a_filesystem_that_may_reorder_is_synced() {
        for fs in [
            Filesystem::Volatile,
            Filesystem::OrdersRenames,
            Filesystem::Other,
        ] {
            let p = plan(false, fs);
            assert!(!p.sync, "a new file has nothing to lose");
            assert!(p.preallocate, "{fs:?}");
        }
        assert!(!plan(true, Filesystem::Volatile).sync);
        assert!(plan(true, Filesystem::Other).sync);
        // ext4 orders the rename after the data only for blocks it allocates late.
        let ext4 = plan(true, Filesystem::OrdersRenames);
        assert!(!ext4.sync && !ext4.preallocate);
    }

    const MOUNTINFO: &str = "\
22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard
23 22 0:21 / /proc rw,nosuid shared:2 - proc proc rw
24 22 254:1 / /data rw,relatime - ext4 /dev/vdb rw,data=writeback
25 22 254:2 / /fast rw - ext4 /dev/vdc rw,noauto_da_alloc
26 22 254:3 / /xfs rw - xfs /dev/vdd rw,attr2
27 22 254:0 /home /home rw master:3 - ext4 /dev/vda rw,discard
28 22 254:4 / /old rw - ext2 /dev/vde rw
";

    #[test]
    fn ext4_is_trusted_with_its_defaults_only() {
        assert!(ext4_orders_renames(MOUNTINFO, (254, 0)));
        assert!(!ext4_orders_renames(MOUNTINFO, (254, 1)), "data=writeback");
        assert!(!ext4_orders_renames(MOUNTINFO, (254, 2)), "noauto_da_alloc");
        assert!(!ext4_orders_renames(MOUNTINFO, (254, 3)), "xfs");
        assert!(
            !ext4_orders_renames(MOUNTINFO, (254, 4)),
            "ext2: no journal"
        );
        assert!(!ext4_orders_renames(MOUNTINFO, (9, 9)), "not listed");
        assert!(!ext4_orders_renames("garbage", (254, 0)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_shared_memory_folder_is_never_taken_for_ext4() {
        // /dev/shm is tmpfs on Linux systems (Volatile); where it is missing, Other.
        assert_ne!(filesystem(Path::new("/dev/shm")), Filesystem::OrdersRenames);
    }
}
