/** The 1,000-character English paragraph both benches synthesise. */
export const BENCH_TEXT = [
  "The old lighthouse stood at the edge of the cliff, its white paint peeling after decades of salt and wind.",
  "Every evening, the keeper climbed the narrow spiral stairs, counting each of the one hundred and twelve steps, and lit the great lamp that guided ships safely past the rocks.",
  "Nobody remembered exactly when the first keeper arrived, but the village kept a careful record of every storm, every rescue, and every ship that had been lost before the light was built.",
  "Children often asked whether the keeper ever grew lonely up there.",
  "She would laugh and tell them that the sea was never quiet enough to be lonely: the gulls argued all morning, the waves kept their own rhythm at night, and the radio crackled with distant voices from passing trawlers.",
  "When the automatic beacon was finally installed, the village held a small ceremony, and the keeper handed over her brass key with a smile.",
  "She still walks the cliff path most mornings, just to make sure that the light keeps turning.",
].join(" ");
