// Counting rounds as the server will, from the rules the page carries as data (app/rules/
// scoreboard.py's offline_rules): no rule of any game is written here, only how the declared
// values combine. static/waiting.js uses it for the rounds that wait for the network;
// tests/e2e/test_tally.py plays the same rounds through it and through app.rules.
"use strict";

// The named ways a game turns a round's scores into points, as its `points` does on the server:
// the game declares which by name (RoundGame.offline_points; none: the scores are the points).
const POINTS = {
  // Whoever ended the round (`ender`) is doubled when positive and not strictly the lowest of
  // the round (Skyjo).
  "ender-doubled": (scores, ender) => {
    if (ender == null) return scores;
    const mine = scores[ender] || 0;
    const strictlyLowest = scores.every((other, seat) => seat === ender || mine < (other || 0));
    return mine > 0 && !strictlyLowest ? scores.map((value, seat) => (seat === ender ? 2 * value : value)) : scores;
  },
};

// The named ways the deal passes after a round, as the game's `deal_rule` does on the server
// (RoundGame.next_dealer): to the next seat, or to whoever ended the round (Skyjo).
const DEALS = {
  "next-seat": (dealer, ender, seats) => (dealer + 1) % seats,
  "round-ender": (dealer, ender, seats) => (ender == null ? (dealer + 1) % seats : ender),
};

window.sqpTally = (rules, startTotals, typed, enders = []) => {
  // The points of each round, by the game's named rule.
  const points = POINTS[rules.points] || ((scores) => scores);
  const rounds = typed.map((scores, index) => points(scores, enders[index]));
  const totals = startTotals.map((start, seat) => rounds.reduce((sum, scores) => sum + (scores[seat] || 0), start));
  const better = rules.best === "highest" ? (a, b) => a > b : (a, b) => a < b;
  const best = totals.reduce((top, total) => (better(total, top) ? total : top), totals[0]);
  const played = rules.played + rounds.length;
  const spare = totals.map((total) => (rules.lastAllowed === null ? null : rules.lastAllowed - total));
  const passed = spare.some((left) => left < 0);
  const leaders = played ? totals.flatMap((total, seat) => (total === best ? [seat] : [])) : [];
  // The end the table chose; a tie for the best total then plays on where the game says so.
  const reached = rules.roundCount !== null ? played >= rules.roundCount : passed;
  const over = reached && !(rules.tiePlaysOn && leaders.length > 1);
  // Within `close` of the end, a row has words, those the server wrote for each margin from
  // -1 (the end reached) up to `close`, translated (null: none); once someone passed the end,
  // only they do. They warn of a danger (`close`) where the lowest total wins: where the highest
  // does, the end near is a win.
  const near = spare.map((left) => left !== null && left <= rules.close && (!passed || left < 0));
  const warnings = spare.map((left, seat) => (near[seat] ? rules.warnings[Math.max(left, -1) + 1] : null));
  // Who deals after the rounds counted: none once the game is over, or where it is not known.
  const pass = DEALS[rules.deal] || DEALS["next-seat"];
  let dealer = rules.dealer ?? null;
  typed.forEach((scores, index) => dealer !== null && (dealer = pass(dealer, enders[index], totals.length)));
  return {
    dealer: over ? null : dealer,
    rounds,
    totals,
    ranks: totals.map((total) => 1 + totals.filter((other) => better(other, total)).length),
    leaders,
    spare,
    close: warnings.map((words) => rules.best === "lowest" && words !== null),
    warnings,
    over,
    winners: over ? leaders : [],
  };
};
