//! Shared test helpers.
#![allow(dead_code)]

use bytes::Bytes;
use signet_blob::{BackendKind, BlobKey, BlobStore, Error};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// put/get/exists/delete/check on any backend.
pub async fn round_trip(store: &BlobStore) -> TestResult {
    let key = BlobKey::new(["tenant", "42", "doc", "5f1c2b9e-7d1a-4c55-9f3e-0a1b2c3d4e5f"])?;
    let other = BlobKey::new(["tenant", "42", "doc", "missing"])?;
    let body = Bytes::from_static(b"%PDF-1.7\n...\n%%EOF\n");

    store.check().await?;
    assert!(!store.exists(&key).await?);
    assert!(matches!(store.get(&key).await, Err(Error::NotFound { .. })));

    store.put(&key, body.clone()).await?;
    assert!(store.exists(&key).await?);
    assert_eq!(store.get(&key).await?, body);
    assert!(!store.exists(&other).await?);

    // Overwrite replaces.
    store.put(&key, Bytes::from_static(b"v2")).await?;
    assert_eq!(store.get(&key).await?, Bytes::from_static(b"v2"));

    // Empty objects are objects too.
    let empty = key.join("empty")?;
    let parent_is_file = store.put(&empty, Bytes::new()).await;
    if store.kind() == BackendKind::Local {
        // On a folder, `key` is a file, so it can not also be a directory.
        assert!(parent_is_file.is_err());
    } else {
        parent_is_file?;
        assert_eq!(store.get(&empty).await?, Bytes::new());
        store.delete(&empty).await?;
    }

    store.delete(&key).await?;
    assert!(!store.exists(&key).await?);
    let err = store.get(&key).await.err();
    assert!(err.as_ref().is_some_and(Error::is_not_found), "{err:?}");
    // Deleting again is fine.
    store.delete(&key).await?;
    store.check().await?;
    Ok(())
}
