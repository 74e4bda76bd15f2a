// A strict MCP client for the gateway's tests: the TypeScript SDK's own Client (installed with the
// npm MCP servers, hack/mcp-servers), which checks every result's structured content against the
// output schema tools/list gave, errors too, with the Ajv validator it is built with.
//
//   node tsclient.mjs NODE_MODULES URL
//     with a bearer token in TOOLGATE_TOKEN and a JSON list of calls, [{"name", "arguments"}], on
//     stdin: lists the tools (so the client compiles their validators), makes each call, and prints
//     {"tools": [the listed tools], "calls": [{"result": ...} or {"error": "..."}, one per call]}.
//   node tsclient.mjs NODE_MODULES --validate
//     with a JSON list of [{"schema", "instances": [...]}] on stdin: compiles every schema with one
//     validator, as the client does a tools/list, and prints, per schema, the validity of each
//     instance ({"valid": [...]}), or {"error": "..."} when the schema does not compile.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [modules, target] = process.argv.slice(2);
const sdk = (path) => import(pathToFileURL(join(modules, '@modelcontextprotocol', 'sdk', 'dist', 'esm', path)).href);

let input = '';
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input);

if (target === '--validate') {
  const { AjvJsonSchemaValidator } = await sdk('validation/ajv-provider.js');
  const validator = new AjvJsonSchemaValidator();
  const out = request.map(({ schema, instances }) => {
    try {
      const validate = validator.getValidator(schema);
      return { valid: instances.map((i) => validate(i).valid) };
    } catch (e) {
      return { error: String(e?.message ?? e) };
    }
  });
  process.stdout.write(JSON.stringify(out));
} else {
  const { Client } = await sdk('client/index.js');
  const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
  const client = new Client({ name: 'toolgate-tsclient', version: 'test' });
  await client.connect(new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${process.env.TOOLGATE_TOKEN}` } },
  }));
  const { tools } = await client.listTools();
  const calls = [];
  for (const { name, arguments: args } of request) {
    try {
      calls.push({ result: await client.callTool({ name, arguments: args }) });
    } catch (e) {
      calls.push({ error: String(e?.message ?? e) });
    }
  }
  await client.close();
  process.stdout.write(JSON.stringify({ tools, calls }));
}
