//! Who may do what to whose resource: the rules the use cases apply, as pure functions over
//! what they have read (the caller's access, the resource's owner and tenant, the consent on
//! record). Every rule that holds a line against an attack lives here, one submodule per
//! capability, each with the unit tests that show where the line runs. The services call
//! these rules; the faces (API, console) only map HTTP to those calls.

pub mod stamps;
