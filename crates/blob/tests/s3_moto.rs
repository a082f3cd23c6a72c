//! The S3 backend against a real local S3 server: moto in server mode
//! (`pip install 'moto[server]'`). The test starts
//! `moto_server -H 127.0.0.1 -p PORT` on a free port and kills it when done, also on panic.
//! Set `SIGNET_TEST_MOTO_SERVER` to use another executable. A missing moto fails the test.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use common::{TestResult, round_trip};
use signet_blob::{BackendKind, BlobKey, BlobStore, Error};

/// A running moto server; killed (and reaped) on drop, so also when a test panics.
struct Moto {
    child: Child,
    port: u16,
    log: tempfile::NamedTempFile,
}

impl Moto {
    fn start() -> Self {
        let exe = std::env::var("SIGNET_TEST_MOTO_SERVER").unwrap_or_else(|_| "moto_server".into());
        let port = free_port();
        let log = tempfile::NamedTempFile::new().expect("temp file for the moto log");
        let log_out = log.reopen().expect("reopen moto log");
        let log_err = log.reopen().expect("reopen moto log");
        let child = match Command::new(&exe)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(log_out)
            .stderr(log_err)
            .spawn()
        {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "`{exe}` was not found on PATH: the S3 tests need moto in server mode. \
                 Install it with: pip install 'moto[server]' (or set SIGNET_TEST_MOTO_SERVER)"
            ),
            Err(e) => panic!("could not start `{exe}`: {e}"),
        };
        let mut moto = Moto { child, port, log };
        moto.wait_ready();
        moto
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap_or_default()
    }

    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("moto_server exited early ({status}):\n{}", self.log_text());
            }
            if matches!(self.http("GET", "/moto-api/data.json"), Ok((200, _))) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "moto_server did not answer on port {} within 60 s:\n{}",
                self.port,
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A minimal HTTP/1.1 request. moto does not verify signatures, but serves objects only
    /// to requests that carry some AWS credential, hence the dummy `Authorization` header.
    fn http(&self, method: &str, path: &str) -> std::io::Result<(u16, Vec<u8>)> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\
             Authorization: AWS4-HMAC-SHA256 \
             Credential=testing/20240101/us-east-1/s3/aws4_request, \
             SignedHeaders=host, Signature=0\r\nConnection: close\r\n\r\n",
            self.port
        )?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw)?;
        let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "bad HTTP response");
        let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(bad)?;
        let head = std::str::from_utf8(&raw[..head_end]).map_err(|_| bad())?;
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            return Err(std::io::Error::other("chunked response not supported here"));
        }
        Ok((status, raw[head_end + 4..].to_vec()))
    }

    fn create_bucket(&self, bucket: &str) {
        let (status, body) = self.http("PUT", &format!("/{bucket}")).expect("create bucket request");
        assert_eq!(status, 200, "create bucket: {}", String::from_utf8_lossy(&body));
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local addr").port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_against_moto() -> TestResult {
    let moto = Moto::start();
    moto.create_bucket("signet-test");
    let ep = moto.endpoint();
    let data_dir = Path::new("/nonexistent-data-dir");
    let creds = "access_key_id=testing&secret_access_key=testing";

    // With a prefix.
    let url = format!("s3://signet-test/deploy-1?endpoint={ep}&region=us-east-1&allow_http=true&{creds}");
    let store = BlobStore::from_url(&url, data_dir)?;
    assert_eq!(store.kind(), BackendKind::S3);
    assert_eq!(store.description(), format!("s3://signet-test/deploy-1 at {ep}"));
    round_trip(&store).await?;

    // The object really is in the bucket, under prefix + key (read back without object_store).
    let key = BlobKey::new(["tenant", "9", "doc", "d0c.pdf"])?;
    let body = Bytes::from(vec![0u8, 1, 2, 255, b'%', b'P']);
    store.put(&key, body.clone()).await?;
    let (status, raw) = moto.http("GET", "/signet-test/deploy-1/tenant/9/doc/d0c.pdf")?;
    assert_eq!(status, 200);
    assert_eq!(raw, body);

    // A store on the bare bucket sees the same object under the prefixed key; a store with
    // another prefix does not.
    let bare = BlobStore::from_url(&format!("s3://signet-test?endpoint={ep}&allow_http=true&{creds}"), data_dir)?;
    let prefixed = BlobKey::new(["deploy-1", "tenant", "9", "doc", "d0c.pdf"])?;
    assert_eq!(bare.get(&prefixed).await?, body);
    let other =
        BlobStore::from_url(&format!("s3://signet-test/deploy-2?endpoint={ep}&allow_http=true&{creds}"), data_dir)?;
    assert!(!other.exists(&key).await?);
    assert!(matches!(other.get(&key).await, Err(Error::NotFound { .. })));

    // Large-ish object (1 MiB) round trip.
    let big = Bytes::from((0..1024 * 1024).map(|i| (i % 251) as u8).collect::<Vec<_>>());
    let big_key = BlobKey::new(["tenant", "9", "doc", "big"])?;
    store.put(&big_key, big.clone()).await?;
    assert_eq!(store.get(&big_key).await?, big);
    store.delete(&big_key).await?;
    store.delete(&key).await?;
    assert!(!store.exists(&key).await?);

    // Readiness fails for a bucket that does not exist ...
    let missing = BlobStore::from_url(&format!("s3://no-such-bucket?endpoint={ep}&allow_http=true&{creds}"), data_dir)?;
    assert!(missing.check().await.is_err());
    // ... and for a server that is not there.
    let closed = free_port();
    let down = BlobStore::from_url(
        &format!("s3://signet-test?endpoint=http://127.0.0.1:{closed}&allow_http=true&{creds}"),
        data_dir,
    )?;
    assert!(down.check().await.is_err());

    drop(moto);
    Ok(())
}
