// The committed src/schema.ts is exactly what the pinned generator makes of ../../openapi.json.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { packageDir } from "./helpers.js";

const openapi = path.join(packageDir, "..", "..", "openapi.json");
const committed = path.join(packageDir, "src", "schema.ts");

test("src/schema.ts equals a fresh generation from openapi.json", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "signet-schema-"));
  try {
    const fresh = path.join(dir, "schema.ts");
    const manifest = require.resolve("openapi-typescript/package.json", { paths: [packageDir] });
    const bin = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { bin: Record<string, string> }).bin;
    const cli = path.join(path.dirname(manifest), bin["openapi-typescript"]!);
    // The same command as `npm run generate`, run from the package directory.
    execFileSync(process.execPath, [cli, "../../openapi.json", "--output", fresh], { cwd: packageDir, stdio: "pipe" });
    const expected = fs.readFileSync(fresh, "utf8");
    const actual = fs.readFileSync(committed, "utf8");
    assert.ok(actual === expected, "src/schema.ts is stale or edited: run `npm run generate` and commit it");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("every path, operation and schema of openapi.json has its type", () => {
  const doc = JSON.parse(fs.readFileSync(openapi, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
    components: { schemas: Record<string, unknown> };
  };
  const ts = fs.readFileSync(committed, "utf8");
  const section = (start: string, end: string) => ts.slice(ts.indexOf(start), ts.indexOf(end, ts.indexOf(start)));
  const pathsBlock = section("export interface paths {", "\nexport ");
  const generatedPaths = [...pathsBlock.matchAll(/^ {4}"([^"]+)": \{$/gm)].map((m) => m[1]);
  assert.deepEqual(generatedPaths.sort(), Object.keys(doc.paths).sort());
  const schemasBlock = section("    schemas: {", "\n    responses:");
  const generatedSchemas = [...schemasBlock.matchAll(/^ {8}"?([A-Za-z0-9_.-]+)"?: /gm)].map((m) => m[1]);
  assert.deepEqual(generatedSchemas.sort(), Object.keys(doc.components.schemas).sort());
  const operationsBlock = section("export interface operations {", "\n}\n");
  const generatedOps = new Set([...operationsBlock.matchAll(/^ {4}"?([A-Za-z0-9_]+)"?: \{$/gm)].map((m) => m[1]));
  const ops = Object.values(doc.paths).flatMap((item) =>
    Object.values(item).flatMap((op) => (op && typeof op === "object" && op.operationId ? [op.operationId] : [])),
  );
  assert.ok(ops.length > 100);
  for (const op of ops) assert.ok(generatedOps.has(op), `operation ${op} has no type`);
});
