const markerPattern = /<!--\s*@([a-z0-9.-]+)\s*-->/gi;

/**
 * Replaces the `<!-- @name -->` markers of a hand-written page with generated HTML (the shared
 * header, operation counts). Every marker needs a value and every value a marker, so a typo in
 * a page or in the build fails the build instead of shipping a page with a hole in it.
 */
export function fillMarkers(html: string, values: Record<string, string>, source: string): string {
  const used = new Set<string>();
  const filled = html.replace(markerPattern, (_marker, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${source}: no value for marker <!-- @${name} -->`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0) {
    throw new Error(`${source}: missing marker(s) ${unused.map((name) => `<!-- @${name} -->`).join(", ")}`);
  }
  return filled;
}
