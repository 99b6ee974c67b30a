import type { ReaderSection } from '../lib/access/readerView'
import { useAuth } from '../lib/auth/AuthContext'

/** The sections the authority says the reader may open; none until it has answered. */
export function useReadableSections(): ReaderSection[] {
  return useAuth().view?.sections ?? []
}
