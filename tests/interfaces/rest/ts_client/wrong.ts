// Must NOT type-check (the test runs tsc on it and expects an error on each of the last two lines): the
// generated types refuse a count `k` that is not a number, and a payload text that is not a string.
import createClient from "openapi-fetch";
import type { paths } from "./memql.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });
await client.POST("/v1/retrieve", { body: { query: "standup", k: "many" } });
await client.POST("/v1/execute", { body: { op: "Encode", args: { payload: { text: 42 } } } });
