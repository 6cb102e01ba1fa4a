import { access, readFile, readdir } from 'node:fs/promises';

async function childrenOf(pid: number): Promise<number[] | null> {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    const out: number[] = [];
    for (const t of tasks) {
      const text = await readFile(`/proc/${pid}/task/${t}/children`, 'utf8');
      for (const c of text.split(' ').filter(Boolean)) out.push(Number(c));
    }
    return out;
  } catch {
    return null;
  }
}

/** The pid and all its descendants (via /proc/<pid>/task/<tid>/children, or a /proc scan). */
export async function processTree(root: number): Promise<number[]> {
  // A process that is gone has no tree (its orphans belong to whoever adopted them).
  if (!(await access(`/proc/${root}`).then(() => true, () => false))) return [];
  const direct = await childrenOf(root);
  if (direct !== null) {
    const all = [root];
    for (let i = 0; i < all.length; i++) {
      const kids = (await childrenOf(all[i] as number)) ?? [];
      all.push(...kids);
    }
    return all;
  }
  const parents = new Map<number, number[]>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i] as number) ?? []));
  return all;
}
