//! The MathML profile (data in `grammars/mathml.toml`): which elements have positional
//! children that must be replaced by a placeholder rather than deleted. Loaded once from
//! the text compiled into the binary.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde::Deserialize;

/// The profile file, compiled in so nothing is read at run time.
const SOURCE: &str = include_str!("../../grammars/mathml.toml");

/// What the XML front end needs to know about MathML.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Profile {
    /// The MathML namespace URI.
    pub namespace: String,
    /// Text that stands in for a removed positional child.
    pub placeholder: String,
    /// Elements with positional children.
    pub fixed_arity: BTreeSet<String>,
    /// Elements whose first so many children are positional, the rest a list.
    #[serde(default)]
    pub positional_prefix: BTreeMap<String, usize>,
    /// Elements holding lists of children.
    pub lists: BTreeSet<String>,
    /// Token elements whose text may shrink.
    pub tokens: BTreeSet<String>,
}

/// The compiled-in profile. A malformed profile file is caught by the unit test below; at
/// run time it would degrade to plain XML handling rather than fail.
pub static PROFILE: LazyLock<Profile> =
    LazyLock::new(|| toml::from_str(SOURCE).unwrap_or_default());

impl Profile {
    /// True when `local` names an element the profile describes.
    pub fn knows(&self, local: &str) -> bool {
        self.fixed_arity.contains(local)
            || self.positional_prefix.contains_key(local)
            || self.lists.contains(local)
            || self.tokens.contains(local)
    }

    /// True when `name` (a local name) in `namespace` has positional children.
    pub fn is_fixed_arity(&self, namespace: Option<&str>, local: &str) -> bool {
        namespace == Some(self.namespace.as_str()) && self.fixed_arity.contains(local)
    }

    /// How many of the first element children of a MathML element `local` are
    /// positional: all of a fraction's, the first of `semantics`, none of a row's.
    pub fn positional(&self, local: &str) -> usize {
        if self.fixed_arity.contains(local) {
            usize::MAX
        } else {
            self.positional_prefix.get(local).copied().unwrap_or(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_parses_and_knows_fractions() {
        let profile: Profile = toml::from_str(SOURCE).unwrap();
        assert_eq!(profile.placeholder, "<mrow/>");
        assert!(profile.is_fixed_arity(Some("http://www.w3.org/1998/Math/MathML"), "mfrac"));
        assert!(!profile.is_fixed_arity(None, "mfrac"));
        assert!(profile.lists.contains("mrow"));
        assert_eq!(profile.positional("mfrac"), usize::MAX);
        assert_eq!(profile.positional("semantics"), 1);
        assert_eq!(profile.positional("mrow"), 0);
    }
}
