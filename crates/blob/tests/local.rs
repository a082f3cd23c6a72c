//! Local folder and in-memory backends.

use std::path::Path;

mod common;

use bytes::Bytes;
use common::{TestResult, round_trip};
use signet_blob::{BackendKind, BlobKey, BlobStore, Error};

#[tokio::test]
async fn local_folder_round_trip() -> TestResult {
    let data = tempfile::tempdir()?;
    let store = BlobStore::from_url("blobs", data.path())?;
    assert_eq!(store.kind(), BackendKind::Local);
    round_trip(&store).await?;

    // The object is a plain file where the key says, under data_dir/blobs.
    let key = BlobKey::new(["tenant", "7", "doc", "abc.pdf"])?;
    store.put(&key, Bytes::from_static(b"hello")).await?;
    let file = data.path().join("blobs/tenant/7/doc/abc.pdf");
    assert_eq!(std::fs::read(&file)?, b"hello");

    // A clone is the same store.
    let clone = store.clone();
    assert_eq!(clone.get(&key).await?, Bytes::from_static(b"hello"));
    Ok(())
}

#[tokio::test]
async fn local_folder_url_forms() -> TestResult {
    let data = tempfile::tempdir()?;
    let abs = data.path().join("abs/blobs");
    let key = BlobKey::new(["k"])?;

    // Absolute plain path, created if missing.
    let a = BlobStore::from_url(abs.to_str().ok_or("utf-8")?, Path::new("/nonexistent"))?;
    a.put(&key, Bytes::from_static(b"1")).await?;
    assert_eq!(std::fs::read(abs.join("k"))?, b"1");

    // file:// URL to the same folder sees the same object.
    let url = format!("file://{}", abs.display());
    let b = BlobStore::from_url(&url, Path::new("/nonexistent"))?;
    assert_eq!(b.get(&key).await?, Bytes::from_static(b"1"));
    assert!(b.description().contains("abs/blobs"));

    // Relative plain path with ./ under data_dir.
    let c = BlobStore::from_url("./rel/x", data.path())?;
    c.put(&key, Bytes::from_static(b"2")).await?;
    assert_eq!(std::fs::read(data.path().join("rel/x/k"))?, b"2");
    Ok(())
}

#[tokio::test]
async fn local_check_fails_when_folder_is_gone() -> TestResult {
    let data = tempfile::tempdir()?;
    let store = BlobStore::from_url("blobs", data.path())?;
    store.check().await?;
    std::fs::remove_dir_all(data.path().join("blobs"))?;
    assert!(store.check().await.is_err());
    Ok(())
}

#[tokio::test]
async fn local_folder_is_a_file() -> TestResult {
    let data = tempfile::tempdir()?;
    std::fs::write(data.path().join("blobs"), b"x")?;
    assert!(matches!(BlobStore::from_url("blobs", data.path()), Err(Error::Folder { .. })));
    Ok(())
}

#[tokio::test]
async fn memory_round_trip() -> TestResult {
    let store = BlobStore::from_url("memory://", Path::new("."))?;
    round_trip(&store).await
}

/// Keys can not leave the store's root: every hostile shape is refused when the key is
/// built, and nothing is written outside the folder.
#[tokio::test]
async fn traversal_attempts_are_rejected() -> TestResult {
    let data = tempfile::tempdir()?;
    let root = data.path().join("root");
    let store = BlobStore::from_url("root", data.path())?;
    let hostile = [
        "..",
        "../outside",
        "../../etc/passwd",
        "/etc/passwd",
        "a/../../outside",
        "a/./b",
        ".",
        "./a",
        "..\\outside",
        "a\\..\\..\\outside",
        "%2e%2e/outside",
        "%2e%2e%2foutside",
        "a//b",
        "",
        "a/",
        "C:\\Windows",
        "file:///etc/passwd",
        "\u{0}",
        "a\u{0}b",
        "ａ/．．",
        "résumé.pdf",
        "my document.pdf",
        "..%c0%af",
        ".ssh",
    ];
    for k in hostile {
        assert!(matches!(BlobKey::parse(k), Err(Error::InvalidKey { .. })), "key {k:?} was accepted");
        assert!(BlobKey::new(["tenant", "1", k]).is_err(), "segment {k:?} was accepted");
    }

    // Accepted keys land under the root, whatever their shape.
    for k in ["a", "a.b", "a-b_c", "x.pdf", "a.b.c", "-", "_", "0"] {
        let key = BlobKey::new(["t", k])?;
        store.put(&key, Bytes::from_static(b"in")).await?;
        assert!(root.join("t").join(k).is_file(), "{k}");
    }
    // Nothing was created beside the root.
    let mut names: Vec<_> =
        std::fs::read_dir(data.path())?.map(|e| e.map(|e| e.file_name())).collect::<Result<_, _>>()?;
    names.sort();
    assert_eq!(names, vec![std::ffi::OsString::from("root")]);
    Ok(())
}

/// An object written in parts appears whole only when finished, and reads back as a stream.
#[tokio::test]
async fn written_in_parts_and_read_as_a_stream() -> TestResult {
    use futures_util::StreamExt;
    let data = tempfile::tempdir()?;
    let store = BlobStore::from_url("blobs", data.path())?;
    let key = BlobKey::new(["exports", "big.csv"])?;
    let mut writer = store.writer(&key).await?;
    let line = Bytes::from(vec![b'x'; 1024 * 1024]);
    for _ in 0..20 {
        writer.write(line.clone()).await?;
    }
    assert!(!store.exists(&key).await?, "nothing is visible before the end");
    writer.finish().await?;
    let (size, mut stream) = store.get_stream(&key).await?;
    assert_eq!(size, 20 * 1024 * 1024);
    let mut read = 0_usize;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        assert!(chunk.iter().all(|b| *b == b'x'));
        read += chunk.len();
    }
    assert_eq!(read, 20 * 1024 * 1024);

    // Given up: nothing stored.
    let other = BlobKey::new(["exports", "abandoned.csv"])?;
    let mut writer = store.writer(&other).await?;
    writer.write(line).await?;
    writer.abort().await?;
    assert!(!store.exists(&other).await?);
    assert!(matches!(store.get_stream(&other).await, Err(Error::NotFound { .. })));
    Ok(())
}
