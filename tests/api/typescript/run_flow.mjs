// Runs the compiled organiser's flow against a server: node run_flow.mjs <base URL> <token>.
import { organiserFlow } from "./out/organiser_flow.mjs";

const [baseUrl, token] = process.argv.slice(2);
console.log(JSON.stringify(await organiserFlow(baseUrl, token)));
