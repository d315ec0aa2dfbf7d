//! Writing results: the output file is replaced atomically (a temporary file in the same
//! folder, then a rename), so at every moment it holds a whole text the oracle accepted.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// The default output path: `<stem>.reduced.<ext>` beside the input.
pub fn default_path(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| String::from("input"));
    let name = match input.extension() {
        Some(ext) => format!("{stem}.reduced.{}", ext.to_string_lossy()),
        None => format!("{stem}.reduced"),
    };
    input.with_file_name(name)
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The temporary files being written, for [`emergency_cleanup`]: a second interrupt exits
/// at once, without the destructors that would remove them.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A temporary file listed in [`PENDING`] while this lives.
struct Pending(PathBuf);

impl Pending {
    fn new(path: &Path) -> Self {
        pending().push(path.to_path_buf());
        Pending(path.to_path_buf())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        pending().retain(|p| *p != self.0);
    }
}

/// Removes the temporary files of writes under way. Meant for the signal-handling thread
/// just before `std::process::exit`; keeps the list locked, so no write completes after.
pub fn emergency_cleanup() {
    let files = pending();
    for file in files.iter() {
        let _ = std::fs::remove_file(file);
    }
    std::mem::forget(files);
}

/// The error for an output that exists but is not a regular file: the output is replaced
/// as the run goes (each better text), which a device or a pipe cannot take.
fn not_regular(path: &Path) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (the output is replaced by each better text; give a file path)",
        ),
    }
}

/// What writing to `path` replaces: the file it names (see [`resolve`]) and, when one
/// exists, its metadata. Something that is not a regular file is refused.
fn target(path: &Path) -> Result<(PathBuf, Option<std::fs::Metadata>)> {
    let existing = std::fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return Err(not_regular(path));
    }
    let target = resolve(path).unwrap_or_else(|| path.to_path_buf());
    Ok((target, existing))
}

/// The error for a failure to write `path`.
fn write_error(path: &Path) -> impl Fn(std::io::Error) -> Error + Copy + '_ {
    move |source| Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Fails early (before any oracle call) when the output's folder cannot take a new file,
/// or the output exists and is not a regular file.
pub fn check_writable(path: &Path) -> Result<()> {
    let (target, _) = target(path)?;
    let folder = folder_of(&target);
    // The error names the folder, not the temporary file that could not be made in it.
    let why = |kind: std::io::ErrorKind, what: &str| {
        write_error(path)(std::io::Error::new(
            kind,
            format!("{what} {}", folder.display()),
        ))
    };
    if !folder.is_dir() {
        return Err(why(std::io::ErrorKind::NotFound, "no such folder:"));
    }
    tempfile::NamedTempFile::new_in(folder)
        .map(drop)
        .map_err(|e| {
            // The system's own words (`Permission denied`, `Read-only file system`), not
            // the kind's (`entity not found` for a folder of /proc).
            // (tempfile adds the temporary file's path, which the user never named).
            let text = e.to_string();
            let reason = text.split(" at path ").next().unwrap_or(&text);
            why(
                e.kind(),
                &format!("no file can be made ({reason}) in the folder"),
            )
        })
}

/// The file `path` names: symbolic links followed (a dangling one to the file it would
/// create), and for a file that does not exist yet, its canonical folder joined with its
/// name. `None` when the folder does not exist.
pub fn resolve(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    // As many links as the kernel follows (ELOOP beyond that).
    for _ in 0..40 {
        if let Ok(real) = std::fs::canonicalize(&path) {
            return Some(real);
        }
        match std::fs::read_link(&path) {
            Ok(target) => path = folder_of(&path).join(target),
            Err(_) => break,
        }
    }
    let name = path.file_name()?;
    let folder = std::fs::canonicalize(folder_of(&path)).ok()?;
    Some(folder.join(name))
}

/// Whether `a` and `b` name the same file (existing or not).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (resolve(a), resolve(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Replaces `path` with `text` atomically: a temporary file in the same folder, then a
/// rename. A symbolic link is followed (the file it points to is replaced, the link stays),
/// an existing file keeps its permissions and a new one gets the usual ones (0666 less the
/// umask). Something that is not a regular file (a device, a pipe) is refused.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let err = write_error(path);
    let (target, existing) = target(path)?;
    let mut file = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(folder_of(&target))
        .map_err(err)?;
    let _pending = Pending::new(file.path());
    file.write_all(text.as_bytes()).map_err(err)?;
    if let Some(meta) = &existing {
        file.as_file()
            .set_permissions(meta.permissions())
            .map_err(err)?;
    }
    file.as_file().sync_data().map_err(err)?;
    file.persist(&target).map_err(|e| err(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_keeps_extension() {
        assert_eq!(
            default_path(Path::new("dir/page.xhtml")),
            PathBuf::from("dir/page.reduced.xhtml")
        );
        assert_eq!(
            default_path(Path::new("notes")),
            PathBuf::from("notes.reduced")
        );
    }
}
