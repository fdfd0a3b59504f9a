//! Issue 8, C4: house rules say what they do to an imported rule or action (`remove`, `replace`,
//! `change`); a same-named definition that does not say so is an error. One snapshot per misuse: the
//! source and the rendered diagnostics together (as tests/check_finds.rs).

use crate::common;

use common::{check, error_snap as snap};

/// A house rule file that checks clean.
fn clean(src: &str) {
    let out = check(src);
    assert!(!out.contains("error") && !out.contains("warning"), "{out}");
}

/// A house rule file whose only finding is that a `remove` left the imported parameter `param` unread.
fn clean_but_unread(src: &str, param: &str) {
    let out = check(src);
    assert!(!out.contains("error"), "{out}");
    assert_eq!(out.matches("warning").count(), 1, "{out}");
    assert!(
        out.contains(&format!(
            "warning: after this `remove`, nothing reads parameter `{param}`"
        )),
        "{out}"
    );
}

const HEAD: &str = "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\n";

// A definition with an imported name that does not say `replace`: an error at the new one, naming
// where the imported one is, with the explicit forms.
snap!(
    silent_shadow_of_a_rule,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule road on scored when feature.kind == road {\n  score(feature.winners, 2 * feature.tiles)\n}\n"
);
snap!(
    silent_shadow_of_an_action,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\naction sell_abroad phase score {\n  score(player, 1)\n}\n"
);

// Removing, replacing or changing a name no imported file defines: did-you-mean, or the other kind.
snap!(
    remove_a_misspelt_rule,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nremove rule raod\n"
);
snap!(
    remove_a_rule_that_is_an_action,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\nremove rule sell_abroad\n"
);
snap!(
    replace_a_name_not_imported,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nreplace action bonus phase score {\n  score(player, 1)\n}\n"
);
snap!(
    change_a_rule_defined_here,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nrule bonus on placed {\n  score(player, 1)\n}\nchange rule bonus when turn_number() > 3\n"
);
snap!(
    remove_twice,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nremove rule farm\nremove rule farm\n"
);

// `change` says what it changes, and only parts the imported definition has.
snap!(
    change_nothing,
    "import \"base\"\nvariant \"v\" {\n  map = unbounded\n}\nchange rule road\n"
);
snap!(
    change_an_unknown_choice,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\nchange action sell_abroad choose wines: chips from chips(hand(player)) size 1..2\n"
);
snap!(
    change_the_limits_of_a_forced_action,
    "import \"iberia\"\nvariant \"v\" {\n  map = \"iberia\"\n}\nchange action treat limit per turn 1\n"
);

// A changed part is checked in the file that wrote it: the caret is in the house rule.
snap!(
    changed_condition_is_checked_here,
    "import \"france\"\nvariant \"v\" {\n  map = \"france\"\n}\nchange action sell_town when turn_tile().square.towm\n"
);

// Removing an action that a rule asks for: the `ask` is an error naming the `remove`.
snap!(
    remove_an_asked_action,
    "import \"tests/scripts/lang/asked.rules\"\nvariant \"v\" {\n  map = unbounded\n}\nremove action pay_toll\n"
);

#[test]
fn the_explicit_forms_check_clean() {
    // `sale_town` was read only by `sell_town`.
    clean_but_unread(&format!("{HEAD}remove action sell_town\n"), "sale_town");
    clean(&format!(
        "{HEAD}replace action sell_town phase score limit group sale when turn_tile().square.town {{\n  score(player, 1)\n}}\n"
    ));
    clean(&format!(
        "{HEAD}change action sell_abroad limit per turn 2\n"
    ));
    clean(&format!(
        "{HEAD}change action sell_abroad limit none limit per turn 2 when true\n"
    ));
    clean(&format!(
        "{HEAD}change action sell_abroad phase after choose wine: chips from chips(hand(player)) size 1 {{\n  move(wine, box, up)\n  score(player, 1)\n}}\n"
    ));
    clean(&format!("{HEAD}change rule road when feature.tiles > 2\n"));
    // After `remove`, the name is free again (the new `road` does not read `road_tile`).
    clean_but_unread(&format!(
        "{HEAD}remove rule road\nrule road on scored when feature.kind == road {{\n  score(feature.winners, 1)\n}}\n"
    ), "road_tile");
    clean(&format!(
        "{HEAD}remove rule road\nrule road on scored when feature.kind == road {{\n  score(feature.winners, road_tile)\n}}\n"
    ));
}

/// The README's house rule is `tests/scripts/lang/house_france.rules` word for word; it checks clean,
/// and `carto doc --against france` (the built binary) lists what it changes.
#[test]
fn readme_house_rule_checks_and_documents() {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = std::fs::read_to_string(format!("{root}/tests/scripts/lang/house_france.rules"))
        .expect("read house_france.rules");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("read README");
    let body: Vec<&str> = file.lines().skip(1).collect();
    let indented: Vec<String> = body.iter().map(|l| format!("   {l}")).collect();
    assert!(
        readme.contains(&indented.join("\n")),
        "README's example differs from the file"
    );
    clean_but_unread(&file, "sale_town");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
        .current_dir(root)
        .args([
            "doc",
            "tests/scripts/lang/house_france.rules",
            "--against",
            "france",
        ])
        .output()
        .expect("run carto");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("- **Road** changed: When a road is completed (closed at both ends), at once in that turn, and at the end of the game for each road still incomplete, if the number of tiles of the road is at least 3, then"), "{text}");
    // The old sentence below the new one.
    assert!(text.contains("\n  - before: When a road is completed (closed at both ends), at once in that turn, and at the end of the game for each road still incomplete, the players with the most followers on the road score"), "{text}");
    assert!(
        text.contains("Changed by the house rule at tests/scripts/lang/house_france.rules:8."),
        "{text}"
    );
    assert!(
        text.contains(
            "- **Sell town** (phase 3, once per turn, shared with *sell abroad*) removed"
        ),
        "{text}"
    );
    // The changed limit shows in the heading, with the limits it replaced.
    assert!(
        text.contains("- **Sell abroad** (phase 3, up to 2 times per turn) changed (was phase 3, once per turn, shared with *sell town*): When"),
        "{text}"
    );
    // The page shows the new limit: two sales a turn.
    let page = std::process::Command::new(env!("CARGO_BIN_EXE_carto"))
        .current_dir(root)
        .args(["doc", "tests/scripts/lang/house_france.rules"])
        .output()
        .expect("run carto");
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(
        page.contains("**Sell abroad** (phase 3, up to 2 times per turn)"),
        "{page}"
    );
    assert!(!page.contains("**Sell town**"), "{page}");
}
