"""The docs' "don't compile this function" example: ``torch.compiler.disable`` on one function called from a
compiled one; Dynamo graph-breaks around it and compiles the callers' pieces."""

import torch


def complex_conjugate(z):
    return torch.conj(z)


@torch.compiler.disable(recursive=False)
def complex_function(real, imag):
    # Assuming this function cause problems in the compilation
    z = torch.complex(real, imag)
    return complex_conjugate(z)


def outer_function():
    real = torch.tensor([2, 3], dtype=torch.float32)
    imag = torch.tensor([4, 5], dtype=torch.float32)
    z = complex_function(real, imag)
    return torch.abs(z)


compiled_outer = torch.compile(outer_function, backend="eager")
print(compiled_outer().tolist())
