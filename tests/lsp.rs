//! `carto lsp` (issue 35, A and D), along the path an editor takes: a client speaking JSON-RPC to the
//! real binary over its standard input and output drives every capability, on bundled rules files
//! and on a broken one; the transcripts are snapshots (their numbers checked by hand, see each
//! test). And the document store does not grow over 10,000 edits.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A language client on a `carto lsp` child process.
struct Client {
    child: Child,
    stdin: ChildStdin,
    out: BufReader<ChildStdout>,
    next: i64,
    /// Notifications received while waiting for a response.
    notes: Vec<Value>,
    root: String,
}

impl Client {
    fn start(root: &str) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carto"))
            .arg("lsp")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start carto lsp");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut c = Client {
            child,
            stdin,
            out,
            next: 1,
            notes: Vec::new(),
            root: root.to_string(),
        };
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": format!("file://{root}"), "capabilities": {}}),
        );
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: &Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.out.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its answer (the whole message: `result` or `error`).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.recv();
            if m.get("id") == Some(&json!(id)) {
                return m;
            }
            self.notes.push(m);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let m = self.call(method, params);
        assert!(m.get("error").is_none(), "{method}: {m}");
        m["result"].clone()
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        loop {
            if let Some(i) = self
                .notes
                .iter()
                .position(|n| n["params"]["uri"] == json!(uri))
            {
                return self.notes.remove(i)["params"]["diagnostics"].clone();
            }
            let m = self.recv();
            self.notes.push(m);
        }
    }

    fn open(&mut self, path: &str, text: &str) -> String {
        let uri = format!("file://{path}");
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "carto", "version": 1, "text": text}}),
        );
        uri
    }

    /// Ends the session as an editor does; the server exits with 0.
    fn finish(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }

    /// A value with the root folder written `$ROOT`, for a snapshot.
    fn shown(&self, v: &Value) -> String {
        serde_json::to_string_pretty(v)
            .unwrap()
            .replace(&self.root, "$ROOT")
    }
}

fn pos(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// The line and column of the first `needle` in `text` (0-based, ASCII text), plus `add` columns.
fn at(text: &str, needle: &str, add: u32) -> (u32, u32) {
    let i = text.find(needle).unwrap_or_else(|| panic!("no `{needle}`"));
    let line = text[..i].matches('\n').count() as u32;
    let col = (i - text[..i].rfind('\n').map_or(0, |j| j + 1)) as u32;
    (line, col + add)
}

fn root() -> String {
    env!("CARGO_MANIFEST_DIR").to_string()
}

#[test]
fn a_bundled_variant_in_an_editor() {
    let root = root();
    let path = format!("{root}/rules/iberia.rules");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::start(&root);
    let uri = c.open(&path, &text);
    let mut t = String::new();
    // A bundled file has no problem.
    let diags = c.diagnostics(&uri);
    t.push_str(&format!("diagnostics: {}\n\n", c.shown(&diags)));

    let (l, col) = at(&text, "treat_factor *", 2);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover treat_factor (a parameter):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));

    let (l, col) = at(&text, "override scatter_islands", 12);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover scatter_islands (imported, overridden):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));
    let def = c.request("textDocument/definition", pos(&uri, l, col));
    t.push_str(&format!(
        "definition scatter_islands: {}\n\n",
        c.shown(&def)
    ));

    let (l, col) = at(&text, "rule treat_taken", 7);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover treat_taken (a rule):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));

    let (l, col) = at(&text, "squares_with(\"band\"", 3);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover squares_with (a builtin):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));

    let (l, col) = at(&text, "square.island and", 8);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover island (a field):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));

    let (l, col) = at(&text, "import \"scatter\"", 9);
    let hover = c.request("textDocument/hover", pos(&uri, l, col));
    t.push_str(&format!(
        "hover the import:\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));

    let (l, col) = at(&text, "treat_factor: int", 0);
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}, "context": {"includeDeclaration": true}}),
    );
    t.push_str(&format!("references treat_factor: {}\n\n", c.shown(&refs)));

    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let outline: Vec<String> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} ({}) line {}",
                s["name"].as_str().unwrap(),
                s["detail"].as_str().unwrap(),
                s["range"]["start"]["line"]
            )
        })
        .collect();
    t.push_str(&format!("outline:\n{}\n\n", outline.join("\n")));

    let folds = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": uri}}),
    );
    let folds: Vec<String> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}-{}", f["startLine"], f["endLine"]))
        .collect();
    t.push_str(&format!("folds: {}\n\n", folds.join(" ")));

    let tokens = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    let data = tokens["data"].as_array().unwrap();
    t.push_str(&format!("semantic tokens: {}\n\n", data.len() / 5));

    let fmt = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    t.push_str(&format!("formatting (already formatted): {fmt}\n\n"));

    let (l, col) = at(&text, "square.island and", 7);
    let list = c.request("textDocument/completion", pos(&uri, l, col));
    let labels: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for want in ["band", "island", "shields", "covered", "chips", "x"] {
        assert!(
            labels.contains(&want),
            "no `{want}` after `square.`: {labels:?}"
        );
    }
    t.push_str(&format!(
        "completion after `square.`: {} items\n\n",
        labels.len()
    ));

    // A map attribute: its type on the variant's map, and its definition in the map's TOML.
    let gb = format!("{root}/rules/great-britain.rules");
    let gb_text = std::fs::read_to_string(&gb).unwrap();
    let gb_uri = c.open(&gb, &gb_text);
    assert_eq!(c.diagnostics(&gb_uri), json!([]));
    let (l, col) = at(&gb_text, "s.spot == colour", 3);
    let hover = c.request("textDocument/hover", pos(&gb_uri, l, col));
    t.push_str(&format!(
        "hover spot (a map attribute):\n{}\n\n",
        hover["contents"]["value"].as_str().unwrap()
    ));
    let def = c.request("textDocument/definition", pos(&gb_uri, l, col));
    t.push_str(&format!(
        "definition spot (into the map): {}\n",
        c.shown(&def)
    ));
    c.finish();
    insta::assert_snapshot!("lsp_bundled", t.replace(&root, "$ROOT"));
}

const BROKEN: &str = "import \"base\"

param bonus: int = 2 \"points for a bonus\"

rule city on scored when feature.kind == citty {
  score(feature.winners, bonus)
}

rule broken on placed {
  score(player, bonus +)
}

rule later on placed when bonus > 0 {
  score(player, bonsu)
}
";

#[test]
fn a_broken_file_in_an_editor() {
    let dir = std::env::temp_dir().join(format!("carto-lsp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = dir.display().to_string();
    let path = format!("{root}/house.rules");
    std::fs::write(&path, BROKEN).unwrap();
    let mut c = Client::start(&root);
    let uri = c.open(&path, BROKEN);
    let mut t = String::new();
    // Every item is checked, the one after the syntax error included.
    let diags = c.diagnostics(&uri);
    t.push_str(&format!("diagnostics: {}\n\n", c.shown(&diags)));

    let (l, col) = at(BROKEN, "citty", 2);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": l, "character": col}, "end": {"line": l, "character": col}}, "context": {"diagnostics": []}}),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    t.push_str(&format!(
        "code actions at citty: {titles:?}\n{}\n\n",
        c.shown(&actions[0]["edit"])
    ));

    let (l, col) = at(BROKEN, "rule city", 6);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": l, "character": col}, "end": {"line": l, "character": col}}, "context": {"diagnostics": []}}),
    );
    for a in actions.as_array().unwrap() {
        t.push_str(&format!(
            "code action: {}\n{}\n",
            a["title"].as_str().unwrap(),
            c.shown(&a["edit"])
        ));
    }
    t.push('\n');

    // Renaming the parameter renames its every use.
    let (l, col) = at(BROKEN, "param bonus", 7);
    let prep = c.request("textDocument/prepareRename", pos(&uri, l, col));
    t.push_str(&format!("prepare rename bonus: {prep}\n"));
    let mut p = pos(&uri, l, col);
    p["newName"] = json!("extra");
    let edit = c.request("textDocument/rename", p);
    t.push_str(&format!("rename bonus to extra: {}\n\n", c.shown(&edit)));
    // A bundled parameter cannot be renamed; nor a name to a keyword.
    let (l, col) = at(BROKEN, "feature.winners", 0);
    let refused = c.call("textDocument/prepareRename", pos(&uri, l, col));
    t.push_str(&format!(
        "prepare rename feature: {}\n",
        refused["error"]["message"]
    ));
    let (l, col) = at(BROKEN, "param bonus", 7);
    let mut p = pos(&uri, l, col);
    p["newName"] = json!("rule");
    let refused = c.call("textDocument/rename", p);
    t.push_str(&format!(
        "rename bonus to rule: {}\n\n",
        refused["error"]["message"]
    ));

    // Completion in a condition offers the parameter; after `on`, the triggers.
    let (l, col) = at(BROKEN, "bonus > 0", 0);
    let list = c.request("textDocument/completion", pos(&uri, l, col));
    let labels: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"bonus") && labels.contains(&"score") && labels.contains(&"when"),
        "{labels:?}"
    );
    let (l, col) = at(BROKEN, "on placed", 3);
    let list = c.request("textDocument/completion", pos(&uri, l, col));
    let labels: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"placed") && labels.contains(&"scored") && !labels.contains(&"bonus"),
        "{labels:?}"
    );

    // The fixed text: no diagnostic left but the one of the imported rule redefined.
    let fixed = BROKEN
        .replace("citty", "city")
        .replace("bonus +", "bonus + 1")
        .replace("bonsu", "bonus");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let diags = c.diagnostics(&uri);
    let codes: Vec<&str> = diags
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    t.push_str(&format!("after the fixes: {codes:?}\n"));
    // Formatting a file with a syntax error changes nothing.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "rule x on {\n"}]}),
    );
    let fmt = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    t.push_str(&format!("formatting a syntax error: {fmt}\n"));
    c.finish();
    let _ = std::fs::remove_dir_all(&dir);
    insta::assert_snapshot!("lsp_broken", t.replace(&root, "$ROOT"));
}

#[test]
fn the_store_does_not_grow_over_ten_thousand_edits() {
    use carto::lsp::protocol::Server;
    let mut s = Server::default();
    let uri = "file:///nowhere/edit.rules";
    let text = |i: usize| {
        format!(
            "param p: int = {}\nrule r on placed when p > {} {{\n  score(player, p)\n}}\n",
            i % 10,
            i % 7
        )
    };
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "carto", "version": 0, "text": text(0)}}});
    s.handle(&open);
    let mut sizes = Vec::new();
    for i in 1..=10_000 {
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": i}, "contentChanges": [{"text": text(i)}]}});
        let out = s.handle(&change);
        assert_eq!(out.len(), 1);
        if i % 1000 == 0 {
            sizes.push(s.ws.footprint());
        }
    }
    // The texts differ by no byte in length (one digit each): the store holds the same amount.
    assert!(sizes.iter().all(|n| *n == sizes[0]), "{sizes:?}");
    assert_eq!(s.ws.docs.len(), 1);
}

/// Every request at every few bytes of every bundled rules file, of the regression files (many of
/// them broken) and of a script: an answer each time, never a panic.
#[test]
fn every_request_anywhere_answers() {
    use carto::lsp::protocol::Server;
    let root = root();
    let mut files: Vec<(String, String)> = carto::bundled::RULES
        .iter()
        .map(|(n, t)| (format!("{root}/rules/{n}.rules"), t.to_string()))
        .collect();
    for dir in ["tests/regressions/rules", "tests/scripts/base"] {
        for e in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let p = e.unwrap().path();
            if let Ok(t) = std::fs::read_to_string(&p) {
                files.push((p.display().to_string(), t));
            }
        }
    }
    let mut answered = 0;
    for (path, text) in files.iter().take(60) {
        let mut s = Server::default();
        let uri = format!("file://{path}");
        s.handle(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "carto", "version": 0, "text": text}}}));
        let lines = text.lines().count() as u32 + 1;
        for line in 0..lines {
            for character in [0u32, 3, 9, 17, 30, 200] {
                for method in [
                    "textDocument/hover",
                    "textDocument/definition",
                    "textDocument/completion",
                    "textDocument/references",
                    "textDocument/prepareRename",
                    "textDocument/documentHighlight",
                ] {
                    let out = s.handle(&json!({"jsonrpc": "2.0", "id": 1, "method": method,
                        "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character},
                                   "context": {"includeDeclaration": true}}}));
                    assert_eq!(out.len(), 1, "{method} {path}:{line}:{character}");
                    answered += 1;
                }
            }
        }
        for method in [
            "textDocument/documentSymbol",
            "textDocument/semanticTokens/full",
            "textDocument/foldingRange",
            "textDocument/formatting",
            "textDocument/codeAction",
        ] {
            let out = s.handle(&json!({"jsonrpc": "2.0", "id": 2, "method": method,
                "params": {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true},
                           "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
                           "context": {"diagnostics": []}}}));
            assert!(out[0].get("error").is_none(), "{method} {path}: {}", out[0]);
        }
    }
    assert!(answered > 10_000, "{answered}");
}

/// Renaming a parameter in a rules file that other files of the folder import, without those files
/// being open: the rename edits them too (`house.rules` imports `lib.rules` directly, `deep.rules`
/// through `house.rules`), and not a file that only has a parameter of the same name.
#[test]
fn a_rename_edits_the_closed_files_that_import_the_name() {
    let dir = std::env::temp_dir().join(format!("carto-lsp-closed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = dir.display().to_string();
    let lib = "import \"base\"\n\nparam bonus: int = 2 \"points for a bonus\"\n\nrule lib_bonus on placed when bonus > 0 {\n  score(player, bonus)\n}\n";
    let house = "import \"lib.rules\"\nvariant \"house\" {\n  title = \"House\"\n}\n\nrule more on placed {\n  score(player, bonus + 1)\n}\n";
    let deep = "import \"house.rules\"\n\nrule most on placed {\n  score(player, 2 * bonus)\n}\n";
    let other = "import \"base\"\n\nparam bonus: int = 5\n\nrule own on placed {\n  score(player, bonus)\n}\n";
    for (n, t) in [
        ("lib.rules", lib),
        ("house.rules", house),
        ("deep.rules", deep),
        ("other.rules", other),
    ] {
        std::fs::write(dir.join(n), t).unwrap();
    }
    let mut c = Client::start(&root);
    let uri = c.open(&format!("{root}/lib.rules"), lib);
    let (l, col) = at(lib, "param bonus", 7);
    let mut p = pos(&uri, l, col);
    p["newName"] = json!("extra");
    let edit = c.request("textDocument/rename", p);
    let changes = edit["changes"].as_object().unwrap();
    let mut files: Vec<&str> = changes
        .keys()
        .map(|k| k.rsplit('/').next().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["deep.rules", "house.rules", "lib.rules"], "{edit}");
    // Each edit covers exactly a `bonus`: 3 in lib, 1 in house, 1 in deep.
    let count = |f: &str| {
        changes[&format!("file://{root}/{f}")]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(
        (
            count("lib.rules"),
            count("house.rules"),
            count("deep.rules")
        ),
        (3, 1, 1)
    );
    let (hl, hc) = at(house, "bonus + 1", 0);
    assert_eq!(
        changes[&format!("file://{root}/house.rules")][0]["range"],
        json!({"start": {"line": hl, "character": hc}, "end": {"line": hl, "character": hc + 5}})
    );
    // References find the closed files' uses as well; highlights stay in the document.
    let refs = c.request("textDocument/references", {
        let mut p = pos(&uri, l, col);
        p["context"] = json!({"includeDeclaration": true});
        p
    });
    assert_eq!(refs.as_array().unwrap().len(), 5, "{refs}");
    let hs = c.request("textDocument/documentHighlight", pos(&uri, l, col));
    assert_eq!(hs.as_array().unwrap().len(), 3, "{hs}");
    c.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Completion asked by typing a space offers only what follows `on` and `phase` (typing a condition
/// brings no list at each space: the playground's editor asks at each trigger character); asked
/// by the user (Ctrl+Space) at the same place, the names in scope.
#[test]
fn a_space_typed_completes_only_after_on_and_phase() {
    use carto::lsp::protocol::Server;
    let mut s = Server::default();
    let uri = "file:///nowhere/space.rules";
    let text = "import \"base\"\nparam bonus: int = 2\nrule r on placed when bonus > 0 {\n  score(player, bonus)\n}\nrule t on \n";
    s.handle(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "carto", "version": 0, "text": text}}}));
    let mut ask = |line: u32, character: u32, context: Value| {
        let out = s.handle(&json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}, "context": context}}));
        let labels: Vec<String> = out[0]["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect();
        labels
    };
    let typed = json!({"triggerKind": 2, "triggerCharacter": " "});
    let invoked = json!({"triggerKind": 1});
    // After `when bonus > ` (line 2, column 30): nothing when a space was typed, names when asked.
    assert!(ask(2, 30, typed.clone()).is_empty());
    assert!(ask(2, 30, invoked).contains(&"bonus".to_string()));
    // After `rule t on `: the triggers.
    let triggers = ask(5, 10, typed);
    assert!(triggers.contains(&"placed".to_string()), "{triggers:?}");
    // A `"` typed outside an `import` offers nothing.
    assert!(ask(1, 19, json!({"triggerKind": 2, "triggerCharacter": "\""})).is_empty());
}
