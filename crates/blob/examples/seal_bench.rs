//! Issue 34's benchmark at the storage layer: a 100 MB document written to and streamed back
//! from a local blob folder, encrypted beside in clear, in one run (`scripts/bench-at-rest.sh`).
//! What signing and downloading add on top (hashing, the signature) is the same either way.
//!
//! usage: seal_bench [MB] [ROUNDS]   (defaults 100 and 5)

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use signet_blob::{BlobKey, BlobStore, DataKey, DataKeys, KeyError, KeyOwner, SealingOptions};

/// One fixed data key, as the services' keyring answers once it is cached.
struct OneKey(Arc<DataKey>);

impl DataKeys for OneKey {
    fn for_writing(&self, _: KeyOwner) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>> {
        Box::pin(std::future::ready(Ok(self.0.clone())))
    }
    fn by_id(&self, _: u64) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>> {
        Box::pin(std::future::ready(Ok(self.0.clone())))
    }
}

/// Writes `document` and reads it back as a stream; answers the time of each.
async fn round(store: &BlobStore, key: &BlobKey, document: &Bytes) -> (Duration, Duration) {
    let started = Instant::now();
    store.put(key, document.clone()).await.expect("put");
    let written = started.elapsed();
    let started = Instant::now();
    let (size, mut stream) = store.get_stream(key).await.expect("get");
    let mut read = 0u64;
    while let Some(chunk) = stream.next().await {
        read += chunk.expect("chunk").len() as u64;
    }
    assert_eq!((size, read), (document.len() as u64, document.len() as u64));
    (written, started.elapsed())
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (megabytes, rounds) = (args.first().copied().unwrap_or(100), args.get(1).copied().unwrap_or(5));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let document: Bytes = (0..megabytes * 1024 * 1024).map(|i| (i * 31 % 251) as u8).collect::<Vec<u8>>().into();
    let clear = BlobStore::local(&dir.path().join("clear")).expect("store");
    let keys = Arc::new(OneKey(Arc::new(DataKey::new(1, [7; 32]))));
    let options = SealingOptions { seal_writes: true, accept_plaintext: false };
    let sealed = BlobStore::local(&dir.path().join("sealed")).expect("store").sealed_with(keys, options);
    let key = BlobKey::parse("tenant/1/doc/big.pdf").expect("key");
    let mut totals = [[Duration::ZERO; 2]; 2];
    runtime.block_on(async {
        round(&clear, &key, &document).await;
        round(&sealed, &key, &document).await;
        for _ in 0..rounds {
            for (i, store) in [&clear, &sealed].into_iter().enumerate() {
                let (w, r) = round(store, &key, &document).await;
                totals[i][0] += w;
                totals[i][1] += r;
            }
        }
    });
    let rate = |d: Duration| (megabytes * rounds) as f64 / d.as_secs_f64();
    println!("{megabytes} MB x {rounds} rounds, local folder (fsynced writes)");
    println!("            write MB/s   read MB/s   write+read s/round");
    for (name, [w, r]) in ["in clear", "encrypted"].iter().zip(totals) {
        println!("{name:<10} {:>10.0} {:>11.0} {:>14.3}", rate(w), rate(r), (w + r).as_secs_f64() / rounds as f64);
    }
    let ratio = (totals[1][0] + totals[1][1]).as_secs_f64() / (totals[0][0] + totals[0][1]).as_secs_f64();
    println!("encrypted / in clear, write+read time: {ratio:.3} (goal <= 1.10)");
}
