/**
 * Watches a folder and every folder below it, one watcher per folder. Node 20's recursive watch
 * on Linux watches each file by its inode, so a page an editor saves by writing a copy and
 * renaming it over the page ("safe write", `sed -i`) is lost after that save: its later saves, and
 * its deletion, went unseen. A folder's watcher sees its entries by name, whatever replaced them.
 */
import fs from 'node:fs'
import path from 'node:path'

export interface TreeWatch {
  close(): void
}

const isFolder = (entry: string) => {
  try {
    return fs.lstatSync(entry).isDirectory()
  } catch {
    return false
  }
}

/** Calls `onChange` with the event and the entry's path relative to `root` (null when the platform names none). */
export function watchTree(root: string, onChange: (event: 'rename' | 'change', relative: string | null) => void): TreeWatch {
  // Each watcher with its folder's inode: a folder removed and made again (or replaced by one moved
  // in) under the same name is another folder, whose watcher the old one is not.
  const watchers = new Map<string, { watcher: fs.FSWatcher; inode: number }>()
  const forget = (folder: string) => {
    for (const [watched, { watcher }] of watchers) {
      if (watched === folder || watched.startsWith(folder + path.sep)) {
        watcher.close()
        watchers.delete(watched)
      }
    }
  }
  const watchFolder = (folder: string) => {
    let inode: number
    try {
      inode = fs.lstatSync(folder).ino
    } catch {
      return // Gone before it could be watched: its parent's watcher reports it.
    }
    if (watchers.get(folder)?.inode === inode) return
    forget(folder)
    let watcher: fs.FSWatcher
    try {
      watcher = fs.watch(folder, (event, name) => {
        const entry = name === null ? null : path.join(folder, name.toString())
        // The folder itself removed or moved away: Linux names it as if it were its own entry. One
        // made again in its place (maybe with the same inode) is watched anew.
        if (!fs.existsSync(folder) || (name !== null && name.toString() === path.basename(folder) && !fs.existsSync(entry!))) {
          forget(folder)
          if (isFolder(folder)) watchAll(folder)
          return onChange('rename', path.relative(root, folder))
        }
        if (entry === null) return onChange(event, null)
        // A folder made or moved in is watched with what it holds; one gone is forgotten.
        if (isFolder(entry)) watchAll(entry)
        else if (!fs.existsSync(entry)) forget(entry)
        onChange(event, path.relative(root, entry))
      })
    } catch {
      return
    }
    watcher.on('error', () => forget(folder))
    watchers.set(folder, { watcher, inode })
  }
  const watchAll = (folder: string) => {
    watchFolder(folder)
    let entries: fs.Dirent[] = []
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true })
    } catch {
      // Gone meanwhile.
    }
    for (const entry of entries) if (entry.isDirectory()) watchAll(path.join(folder, entry.name))
  }
  watchAll(root)
  return { close: () => forget(root) }
}
