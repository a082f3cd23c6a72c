pub mod serve;
pub mod tenant;

/// A multi-threaded runtime for the async subcommands.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}
