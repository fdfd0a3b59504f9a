//! The carto playground's side of the page: the carto library behind a plain C ABI of JSON strings.
//!
//! The page writes a request (`{"fn": NAME, ...}`) into memory it got from [`carto_alloc`], calls
//! [`carto_call`] and reads the answer (JSON) at [`carto_out_ptr`] ([`carto_call`] returns its
//! length). Every function is also callable natively ([`call`]), which the unit tests use.

mod api;
mod lsp;
mod play;
mod sim;
mod tune;

use std::cell::RefCell;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Answers one request (JSON text) with JSON text.
pub fn call(request: &str) -> String {
    let answer = match serde_json::from_str::<serde_json::Value>(request) {
        Ok(req) => api::dispatch(&req),
        Err(e) => api::bad(format!("bad request: {e}")).json(),
    };
    answer.to_string()
}

/// Memory for a request of `len` bytes (freed by [`carto_free`]).
#[no_mangle]
pub extern "C" fn carto_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees memory from [`carto_alloc`].
///
/// # Safety
/// `ptr` and `len` are exactly those of one earlier [`carto_alloc`].
#[no_mangle]
pub unsafe extern "C" fn carto_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Answers the request of `len` bytes at `ptr` (UTF-8 JSON); returns the answer's length, to be read
/// at [`carto_out_ptr`] before the next call.
///
/// # Safety
/// `ptr` holds `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn carto_call(ptr: *const u8, len: usize) -> usize {
    let bytes = std::slice::from_raw_parts(ptr, len);
    let answer = match std::str::from_utf8(bytes) {
        Ok(s) => call(s),
        Err(_) => api::bad("the request is not UTF-8").json().to_string(),
    };
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        *o = answer.into_bytes();
        o.len()
    })
}

/// Where the last answer lies.
#[no_mangle]
pub extern "C" fn carto_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}
