// Folding names for search and ordering: case- and accent-insensitive, so "leon" finds "León Gieco".

export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
