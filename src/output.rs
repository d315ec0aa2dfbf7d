//! Writing results: the output file is replaced atomically (a temporary file in the same
//! folder, then a rename), so at every moment it holds a whole text the oracle accepted.

use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Fails early (before any oracle call) when the output's folder cannot take a new file.
pub fn check_writable(path: &Path) -> Result<()> {
    tempfile::NamedTempFile::new_in(folder_of(path))
        .map(drop)
        .map_err(|source| Error::Write {
            path: path.to_path_buf(),
            source,
        })
}

/// Replaces `path` with `text` atomically.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let err = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut file = tempfile::NamedTempFile::new_in(folder_of(path)).map_err(err)?;
    file.write_all(text.as_bytes()).map_err(err)?;
    file.as_file().sync_data().map_err(err)?;
    file.persist(path).map_err(|e| err(e.error))?;
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
