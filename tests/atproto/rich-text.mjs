// The official client's reading of post texts: for each text on standard input (a JSON array),
// its length in graphemes and its facets (mentions unresolved: their `did` is the handle).
import { RichText } from '@atproto/api';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((text) => {
  const rt = new RichText({ text });
  rt.detectFacetsWithoutResolution();
  return { graphemes: rt.graphemeLength, facets: rt.facets ?? [] };
});
console.log(JSON.stringify(out));
