import OCRWire

/// Word-level alternatives from per-symbol LSTM choices (`lstm_choice_mode`).
///
/// Tesseract's C API gives alternatives per symbol, each with a probability. A word's candidates
/// are the `count` most probable spellings formed by picking one choice per symbol: the first is
/// always the recognised word itself with the word's confidence; each other candidate's confidence
/// is the word's confidence scaled by the ratio of its symbol probabilities to the best ones, so
/// the list is best first and every alternative is below the best.
package enum WordCandidates {
    package static func make(word: String, confidence: Float, symbols: [[(text: String, confidence: Float)]], count: Int) -> [Candidate] {
        var first = Candidate()
        first.text = word
        first.confidence = confidence
        guard count > 1, !symbols.isEmpty, symbols.allSatisfy({ !$0.isEmpty }) else { return [first] }
        // Per symbol: the alternatives with their log-ratio to that symbol's best choice.
        let options: [[(text: String, cost: Double)]] = symbols.map { choices in
            let sorted = choices.sorted { $0.confidence > $1.confidence }
            let best = Double(max(sorted[0].confidence, 1e-6))
            return sorted.map { ($0.text, log(best) - log(Double(max($0.confidence, 1e-6)))) }
        }
        // Best-first search over "which choice per symbol" (costs are >= 0, so the heap pops in order).
        var seen: Set<[Int]> = []
        var frontier: [(cost: Double, pick: [Int])] = [(0, Array(repeating: 0, count: options.count))]
        var result = [first]
        var texts: Set<String> = [word]
        while !frontier.isEmpty, result.count < count, seen.count < 2_000 {
            let i = frontier.indices.min { frontier[$0].cost < frontier[$1].cost }!
            let (cost, pick) = frontier.remove(at: i)
            guard seen.insert(pick).inserted else { continue }
            if cost > 0 {
                let text = zip(options, pick).map { $0[$1].text }.joined()
                if texts.insert(text).inserted {
                    var c = Candidate()
                    c.text = text
                    c.confidence = confidence * Float(exp(-cost))
                    result.append(c)
                }
            }
            for s in options.indices where pick[s] + 1 < options[s].count {
                var next = pick
                next[s] += 1
                frontier.append((cost - options[s][pick[s]].cost + options[s][next[s]].cost, next))
            }
        }
        return result
    }
}

import Foundation
