// SHA-256 with Web Crypto, and a small pure-JS fallback for pages not served from a secure context.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256js(bytes) {
  const l = bytes.length;
  const n = ((l + 9 + 63) >> 6) << 6;
  const m = new Uint8Array(n);
  m.set(bytes);
  m[l] = 0x80;
  const dv = new DataView(m.buffer);
  dv.setUint32(n - 4, (l * 8) >>> 0);
  dv.setUint32(n - 8, Math.floor((l * 8) / 2 ** 32));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const r = (x, k) => (x >>> k) | (x << (32 - k));
  for (let o = 0; o < n; o += 64) {
    for (let i = 0; i < 16; i++) W[i] = dv.getUint32(o + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = r(W[i - 15], 7) ^ r(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = r(W[i - 2], 17) ^ r(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (r(e, 6) ^ r(e, 11) ^ r(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) >>> 0;
      const t2 = ((r(a, 2) ^ r(a, 13) ^ r(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  const odv = new DataView(out.buffer);
  H.forEach((v, i) => odv.setUint32(i * 4, v));
  return out;
}

export const hasWebCrypto = () => !!(globalThis.crypto && crypto.subtle);

export async function sha256(text) {
  const bytes = new TextEncoder().encode(text);
  if (hasWebCrypto()) return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return sha256js(bytes);
}

export const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

// fairness.md: the shuffle and the deal, recomputed from the seed.
const FRESH = [];
for (const s of "SHDC") for (const r of "23456789TJQKA") FRESH.push(r + s);

export async function shuffledDeck(seed, n) {
  const deck = [...FRESH];
  let words = [];
  let block = 0;
  const nextWord = async () => {
    if (words.length === 0) {
      const d = await sha256(`${seed}:${n}:${block++}`);
      const dv = new DataView(d.buffer);
      words = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => dv.getUint32(i * 4));
    }
    return words.shift();
  };
  for (let i = 51; i >= 1; i--) {
    const m = i + 1;
    const limit = Math.floor(2 ** 32 / m) * m;
    let x;
    do { x = await nextWord(); } while (x >= limit);
    const j = x % m;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

export async function firstDealer(seed) {
  const d = await sha256(`${seed}:dealer`);
  return new DataView(d.buffer).getUint32(0) % 4;
}

export async function dealHands(seed, n, dealer) {
  const deck = await shuffledDeck(seed, n);
  const hands = [[], [], [], []];
  deck.forEach((c, k) => hands[(dealer + 1 + k) % 4].push(c));
  return hands;
}
