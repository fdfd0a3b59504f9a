//! Compiles the parsers `tree-sitter generate` wrote (rules/src, script/src): plain C, no scanner.

fn main() {
    for (dir, lib) in [
        ("rules/src", "tree-sitter-carto"),
        ("script/src", "tree-sitter-carto-script"),
    ] {
        let parser = format!("{dir}/parser.c");
        println!("cargo:rerun-if-changed={parser}");
        cc::Build::new()
            .std("c11")
            .include(dir)
            .file(&parser)
            .warnings(false)
            .compile(lib);
    }
}
