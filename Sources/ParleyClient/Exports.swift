import ParleyClientFormats

// The formats' public types (Attachment, ForwardSource) are part of the client's API: a program that imports
// ParleyClient sees them without naming the module they live in.
@_exported import ParleyClientFormats
