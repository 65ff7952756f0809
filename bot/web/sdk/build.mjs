// Builds ../static/sdk/discord-sdk.js, Discord's Embedded App SDK (the version package-lock.json pins)
// as one ES module, and ../static/sdk/LICENSES.txt, the licence of every package bundled in it.
// Run by `npm run build` after `npm ci` (.ci/run does both; tests/web builds it when it is missing).
import { build } from "esbuild";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const out = "../static/sdk";
const result = await build({
  entryPoints: ["entry.mjs"],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "none",
  metafile: true,
  outfile: `${out}/discord-sdk.js`,
});

const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) packages.set(match[1], join("node_modules", match[1]));
}
const sections = [...packages.keys()].sort().map((name) => {
  const folder = packages.get(name);
  const { version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = readdirSync(folder).find((entry) => /^licen[cs]e/i.test(entry));
  const text = file ? readFileSync(join(folder, file), "utf8").trim() : `License: ${license}`;
  return `${name} ${version} (${license})\n\n${text}\n`;
});
writeFileSync(
  `${out}/LICENSES.txt`,
  `discord-sdk.js bundles these packages, built from bot/web/sdk/package-lock.json:\n\n${sections.join("\n---\n\n")}`,
);
console.log(`${out}/discord-sdk.js: ${[...packages.keys()].sort().join(", ")}`);
