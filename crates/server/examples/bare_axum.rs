//! The benchmark's reference: a bare axum handler returning a constant, with the same
//! runtime and server stack as Signet, so the API's overhead can be compared with it.

use axum::Router;
use axum::routing::get;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listen = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:0".into());
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    println!("bare axum listening on http://{}", listener.local_addr()?);
    let router = Router::new().route("/", get(|| async { "{\"departmentID\":1,\"departmentName\":\"Legal\"}" }));
    axum::serve(listener, router).await
}
