import { it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { run } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { lintValues } from '../../src/lint/lint.ts';
import { renderChart } from '../../src/render/render.ts';
import { dataSource } from '../../src/values/source.ts';
import { toYaml } from '../../src/render/output.ts';
const time = async (name: string, n: number, f: () => unknown) => { await f(); const t = performance.now(); for (let i = 0; i < n; i++) await f(); console.log(name, ((performance.now()-t)/n).toFixed(2)); };
it('probe', async () => {
  for (const rev of ['A','B'] as const) {
    await time(rev+' cli render', 30, async () => { const io = createMemoryIo({ stdin: 'controller:\n  replicas: 2\n' }); await run(['render','-r',rev,'-f','-','--skip-crds'], io); });
    await time(rev+' cli lint', 30, async () => { const io = createMemoryIo({ stdin: 'controller:\n  replicas: 2\n' }); await run(['lint','-r',rev,'-f','-'], io); });
    const src = dataSource('x', { controller: { replicas: 2 } });
    await time(rev+' lintValues', 30, () => lintValues({ revision: rev, layers: [src], releaseNamespace: 'default', apiVersions: [] }));
    const l = lintValues({ revision: rev, layers: [src], releaseNamespace: 'default', apiVersions: [] });
    await time(rev+' renderChart', 30, () => renderChart(l.layered.values, { revision: rev, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [], skipCrds: true, userValues: src.data }));
    const docs = renderChart(l.layered.values, { revision: rev, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [], skipCrds: true, userValues: src.data });
    await time(rev+' toYaml', 30, () => toYaml(docs));
    const y = toYaml(docs);
    await time(rev+' parse', 30, () => parseAllDocuments(y).map(d=>d.toJS()));
  }
}, 120000);
