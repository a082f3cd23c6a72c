//! An extractive summary: the sentences that carry the document's most frequent content
//! words, in document order. No model, no network: the same text always gives the same summary.

use std::collections::HashMap;

const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before",
    "being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "each", "for", "from", "had", "has",
    "have", "he", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it", "its", "may", "more", "most",
    "must", "no", "not", "of", "on", "or", "other", "our", "out", "over", "shall", "she", "should", "so", "such",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through", "to",
    "under", "until", "up", "upon", "was", "we", "were", "what", "when", "where", "which", "while", "who", "will",
    "with", "would", "you", "your",
];

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 2).map(str::to_lowercase)
}

/// Sentences: split after `.`, `!`, `?` or a blank line; whitespace collapsed.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flat = text.replace("\n\n", "\u{1}");
    for c in flat.chars() {
        match c {
            '\u{1}' => {
                push_sentence(&mut out, &mut current);
            }
            '.' | '!' | '?' => {
                current.push(c);
                push_sentence(&mut out, &mut current);
            }
            c if c.is_whitespace() => {
                if !current.ends_with(' ') && !current.is_empty() {
                    current.push(' ');
                }
            }
            c => current.push(c),
        }
    }
    push_sentence(&mut out, &mut current);
    out
}

fn push_sentence(out: &mut Vec<String>, current: &mut String) {
    let sentence = current.trim().to_string();
    current.clear();
    if sentence.split_whitespace().count() >= 3 && sentence.chars().count() <= 600 {
        out.push(sentence);
    }
}

/// The `max_sentences` highest-scoring sentences in their original order.
pub fn summarise(text: &str, max_sentences: usize) -> Vec<String> {
    let all = sentences(text);
    let mut frequency: HashMap<String, f64> = HashMap::new();
    for word in words(text).filter(|w| !STOP_WORDS.contains(&w.as_str())) {
        *frequency.entry(word).or_insert(0.0) += 1.0;
    }
    let top = frequency.values().copied().fold(1.0_f64, f64::max);
    let mut scored: Vec<(usize, f64)> = all
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let content: Vec<String> = words(s).filter(|w| !STOP_WORDS.contains(&w.as_str())).collect();
            let score = content.iter().map(|w| frequency.get(w).copied().unwrap_or(0.0) / top).sum::<f64>()
                / (content.len() as f64).sqrt().max(1.0);
            (i, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut keep: Vec<usize> = scored.into_iter().take(max_sentences).map(|(i, _)| i).collect();
    keep.sort_unstable();
    keep.into_iter().map(|i| all[i].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_central_sentences_in_order() {
        let text = "The borrower repays the loan in monthly instalments. The weather was nice that day. \
                    Each loan instalment is due on the first day of the month. Late loan instalments carry interest. \
                    Birds sang outside.";
        let summary = summarise(text, 2);
        assert_eq!(summary.len(), 2);
        assert!(summary.iter().all(|s| s.to_lowercase().contains("loan")), "{summary:?}");
        assert!(summarise("", 3).is_empty());
        assert_eq!(summarise(text, 10).len(), 5);
    }
}
