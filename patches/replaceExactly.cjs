// A patch to a dependency's built file must match exactly as often as expected, so an upgrade that
// changes the patched code fails the build instead of silently shipping the unpatched behaviour.
module.exports = function replaceExactly(source, from, to, expected, { loader, file, dependency }) {
  const count = source.split(from).length - 1
  if (count !== expected) {
    throw new Error(`${loader}: expected ${expected} × "${from}" in ${file}, found ${count}; ${dependency} changed`)
  }
  return source.split(from).join(to)
}
