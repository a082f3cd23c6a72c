//! Random-access input: a byte slice in memory or a file read on demand.
//!
//! The reader only asks for small windows (the tail, an xref section, one object), so a 100 MB
//! file is never loaded as a whole.

use std::borrow::Cow;
use std::fs::File;
use std::os::unix::fs::FileExt;

use crate::error::Result;

pub trait Source {
    fn len(&self) -> u64;

    /// Up to `len` bytes starting at `offset` (fewer at the end of the source).
    fn window(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>>;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Source for &[u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn window(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let start = (offset.min(<[u8]>::len(self) as u64)) as usize;
        let end = start.saturating_add(len).min(<[u8]>::len(self));
        Ok(Cow::Borrowed(&self[start..end]))
    }
}

/// A file read with positional reads; its length is taken once at open time.
pub struct FileSource {
    file: File,
    len: u64,
}

impl FileSource {
    pub fn open(path: &std::path::Path) -> Result<Self> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        Ok(FileSource { file, len })
    }
}

impl Source for FileSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn window(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let avail = self.len.saturating_sub(offset);
        let want = (len as u64).min(avail) as usize;
        let mut buf = vec![0u8; want];
        let mut filled = 0;
        while filled < want {
            let n = self.file.read_at(&mut buf[filled..], offset + filled as u64)?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        buf.truncate(filled);
        Ok(Cow::Owned(buf))
    }
}

/// The first `len` bytes of another source: an earlier revision of an incrementally updated
/// file, read as the file it was when it ended there.
pub struct Prefix<'a> {
    pub inner: &'a dyn Source,
    pub len: u64,
}

impl Source for Prefix<'_> {
    fn len(&self) -> u64 {
        self.len.min(self.inner.len())
    }

    fn window(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let end = Source::len(self);
        let want = end.saturating_sub(offset).min(len as u64) as usize;
        self.inner.window(offset.min(end), want)
    }
}
