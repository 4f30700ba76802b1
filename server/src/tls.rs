//! TLS for the connections this server makes to its upstreams (chain RPC, the OpenID Connect
//! issuer, PostgreSQL, Redis): rustls with ring, the Mozilla roots built in (webpki-roots), plus
//! the certificate authorities of `--ca-file` ([`trust_pem`]).

use std::sync::Mutex;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// A connection: plain TCP or TLS over it.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}
pub type Stream = Box<dyn Io>;

/// `tcp` as it is (`name` None), or a TLS session over it with a server whose certificate is
/// valid for `name` (a host name or an IP address).
pub async fn over(tcp: TcpStream, name: Option<&str>) -> Result<Stream, String> {
    match name {
        None => Ok(Box::new(tcp)),
        Some(name) => upgrade(Box::new(tcp), name).await,
    }
}

/// A TLS session over a connection already open (SMTP's `STARTTLS`), with a server whose
/// certificate is valid for `name`.
pub async fn upgrade(io: Stream, name: &str) -> Result<Stream, String> {
    let server_name = rustls::pki_types::ServerName::try_from(name.to_string()).map_err(|e| format!("bad TLS name {name:?}: {e}"))?;
    let tls = tokio_rustls::TlsConnector::from(client_config()).connect(server_name, io).await.map_err(|e| format!("TLS: {e}"))?;
    Ok(Box::new(tls))
}

/// The certificates trusted beyond the built-in roots ([`trust_pem`]), and the TLS configuration
/// made from both (rebuilt when one is added).
static EXTRA_ROOTS: Mutex<Vec<rustls::pki_types::CertificateDer<'static>>> = Mutex::new(Vec::new());
static TLS_CONFIG: Mutex<Option<std::sync::Arc<rustls::ClientConfig>>> = Mutex::new(None);

/// The TLS configuration of every connection this server makes (chains, the issuer, PostgreSQL,
/// Redis).
pub fn client_config() -> std::sync::Arc<rustls::ClientConfig> {
    let mut held = TLS_CONFIG.lock().unwrap();
    if let Some(c) = held.as_ref() {
        return c.clone();
    }
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    for c in EXTRA_ROOTS.lock().unwrap().iter() {
        let _ = roots.add(c.clone());
    }
    let config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("ring offers TLS 1.2 and 1.3")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let c = std::sync::Arc::new(config);
    *held = Some(c.clone());
    c
}

/// Trusts the CA certificates of a PEM file (`--ca-file`: a private CA in front of the chain
/// nodes or the issuer) besides the built-in roots, for the life of the process. How many were
/// added; an error for a file with none or with a bad one.
pub fn trust_pem(pem: &[u8]) -> Result<usize, String> {
    use rustls::pki_types::pem::PemObject;
    if pem.len() > 1 << 20 {
        return Err("larger than 1 MiB".into());
    }
    let certs: Vec<_> = rustls::pki_types::CertificateDer::pem_slice_iter(pem)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("not a PEM file of certificates: {e:?}"))?;
    if certs.is_empty() {
        return Err("holds no certificate".into());
    }
    let mut check = rustls::RootCertStore::empty();
    for c in &certs {
        check.add(c.clone()).map_err(|e| format!("a certificate cannot be a root: {e}"))?;
    }
    let n = certs.len();
    EXTRA_ROOTS.lock().unwrap().extend(certs);
    *TLS_CONFIG.lock().unwrap() = None;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_must_hold_certificates() {
        assert!(trust_pem(b"").unwrap_err().contains("no certificate"));
        assert!(trust_pem(b"-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n").is_err());
        assert!(trust_pem(&vec![b'a'; 2 << 20]).unwrap_err().contains("1 MiB"));
    }
}
