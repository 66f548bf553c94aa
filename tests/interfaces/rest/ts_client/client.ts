// memql's REST API from TypeScript, as a user would call it: the types are what openapi-typescript generated
// from the live server's /openapi.json (./memql.d.ts), the runtime is openapi-fetch. The test
// (tests/interfaces/rest/test_rest_client_typescript.py) type-checks this with tsc, runs it with node against
// `memql serve`, and checks what it prints (one JSON object) and what the server then holds.
import createClient from "openapi-fetch";
import type { components, paths } from "./memql.js";

declare const process: { argv: string[] }; // node's own, without @types/node

type EncodeIR = components["schemas"]["IR_EncodeIR"];
type RetrieveIR = components["schemas"]["IR_RetrieveIR"];
type RetrieveWorkflow = components["schemas"]["RetrieveWorkflow"];

const [baseUrl, key, text] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

const encode: EncodeIR = { op: "Encode", args: { payload: { text }, tags: ["team"] } };
const made = await client.POST("/v1/execute", { body: encode });
if (!made.data) throw new Error(`execute answered ${made.response.status}: ${JSON.stringify(made.error)}`);
const id = String(made.data.data?.id);

// /v1/retrieve: the shorthand, a Retrieve IR and a workflow of Retrieves
const shorthand = await client.POST("/v1/retrieve", { body: { query: text, include: ["id", "text"] } });
const byId: RetrieveIR = { op: "Retrieve", target: { ids: [id] }, args: { include: ["id", "tags"] } };
const ir = await client.POST("/v1/retrieve", { body: byId });
const twice: RetrieveWorkflow = { workflow: [byId, byId] };
const workflow = await client.POST("/v1/retrieve", { body: twice });

// a dry run of a Delete through execute (a query parameter), and a refusal: a key that is not one
const dryRun = await client.POST("/v1/execute", {
  body: { op: "Delete", target: { ids: [id] } },
  params: { query: { dry_run: true } },
});
const stranger = createClient<paths>({ baseUrl, headers: { Authorization: "Bearer memql_nope_nope" } });
const refused = await stranger.POST("/v1/retrieve", { body: byId });

console.log(
  JSON.stringify({
    made: made.data,
    shorthand: shorthand.data,
    ir: ir.data,
    workflow: workflow.data,
    dryRun: dryRun.data,
    refused: { status: refused.response.status, error: refused.error },
  }),
);
