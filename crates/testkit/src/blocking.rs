//! A small blocking HTTP client over a current-thread runtime, so that tests which drive
//! child processes can stay synchronous.

/// The client; each request runs to completion on its own runtime.
pub struct Blocking {
    rt: tokio::runtime::Runtime,
    client: reqwest::Client,
}

/// A request being built.
pub struct Request<'a> {
    owner: &'a Blocking,
    builder: reqwest::RequestBuilder,
}

/// A whole answer: its status and body.
pub struct Reply {
    status: u16,
    body: String,
}

impl Reply {
    pub fn status(&self) -> Status {
        Status(self.status)
    }
    /// The body as JSON, or `null` when it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
    pub fn code(&self) -> u16 {
        self.status
    }
}

/// An HTTP status code.
pub struct Status(u16);

impl Status {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.0)
    }
}

/// A new client.
pub fn blocking_client() -> Blocking {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    Blocking { rt, client: reqwest::Client::new() }
}

impl Blocking {
    pub fn get(&self, url: String) -> Request<'_> {
        Request { owner: self, builder: self.client.get(url) }
    }
    pub fn post(&self, url: String) -> Request<'_> {
        Request { owner: self, builder: self.client.post(url) }
    }
}

impl Request<'_> {
    pub fn bearer(self, token: &str) -> Self {
        Request { owner: self.owner, builder: self.builder.bearer_auth(token) }
    }
    pub fn json(self, body: &serde_json::Value) -> Self {
        Request { owner: self.owner, builder: self.builder.json(body) }
    }
    pub fn header(self, name: &str, value: &str) -> Self {
        Request { owner: self.owner, builder: self.builder.header(name, value) }
    }
    /// A raw body, sent as it is (malformed input).
    pub fn body(self, body: &'static str) -> Self {
        Request { owner: self.owner, builder: self.builder.body(body) }
    }
    pub fn send(self) -> Result<Reply, reqwest::Error> {
        self.owner.rt.block_on(async move {
            let response = self.builder.send().await?;
            let status = response.status().as_u16();
            let body = response.text().await?;
            Ok(Reply { status, body })
        })
    }
}
