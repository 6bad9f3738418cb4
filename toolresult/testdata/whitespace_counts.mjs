import { getEncoding } from "js-tiktoken";
import fs from "fs";
const o = getEncoding("o200k_base"), c = getEncoding("cl100k_base");
// A deterministic generator (mulberry32), so that the texts can be made again.
let seed = 27;
function rnd() { seed |= 0; seed = seed + 0x6D2B79F5 | 0; let t = Math.imul(seed ^ seed >>> 15, 1 | seed); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }
const texts = [
  // The cases, and edge cases of tiktoken's own tests (tiktoken/tests/test_encoding.py, test_simple_public.py).
  "x \n \nabc", " \n \n", "a\n\n \n b", "  \n\t\n  x", "hello world", "hello  world", "  hello", "\n\n\n", "\n \n \n \n",
  "def f():\n    x = 1\n    \n    return x\n", "class A:\n\n    def m(self):\n        pass\n        \n\n    def n(self):\n        return 1\n",
  "}\n  \n}", "a.\n \n", "x/\n \n/", "1\n \n2", "é\n \nà", "\t\n\t\n\tx", "\r\n \r\n", " \r \n", "\n\r\n \r\r\n x",
  "0", " 0", "00", "000", "0000", "rer", "'rer", "today\n ", "today\n \n", "today\n  \n", "<|endoftext|>".replace("|", "| "),
  "   \n", "x   \n   \n   y", "[\n  {\n    \"a\": 1\n  },\n  \n  {}\n]", " \u00a0\n \n", "a\u3000\n \nb",
];
const ws = [" ", " ", " ", "\n", "\n", "\t", "\r", "\r\n", "x", "ab", ".", "é", "1", "{", "\u00a0"];
for (let i = 0; i < 3000; i++) {
  let s = "", n = 1 + Math.floor(rnd() * 12);
  for (let j = 0; j < n; j++) s += ws[Math.floor(rnd() * ws.length)];
  texts.push(s);
}
const out = texts.map(t => ({ text: t, o200k_base: o.encode(t, "all").length, cl100k_base: c.encode(t, "all").length }));
fs.writeFileSync("whitespace_counts.json", JSON.stringify(out, null, 0).replace(/\},\{/g, "},\n{") + "\n");
console.log(out.length);
