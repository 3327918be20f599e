// The rating players see: 1500 for a newcomer, 20 points per unit of the conservative rating (the
// ordinal mu - 3 sigma) behind it; games/ratings/reads.py `shown` says the same.
export const shownRating = (conservative) => Math.round(1500 + 20 * conservative);
