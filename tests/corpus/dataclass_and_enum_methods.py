"""Methods of a ``dataclass`` (``__post_init__`` included) and of an ``Enum`` the cell defines, called from the top
level and from each other."""

import dataclasses
import enum

import torch


class Act(enum.Enum):
    RELU = "relu"
    TANH = "tanh"

    def apply(self, x):
        return torch.relu(x) if self is Act.RELU else torch.tanh(x)


@dataclasses.dataclass
class Config:
    width: int
    act: Act = Act.RELU
    scale: float = 1.0

    def __post_init__(self):
        self.scale = self.scale / self.width

    def run(self, x):
        return self.act.apply(x) * self.scale


cfg = Config(4, Act.TANH, 2.0)
x = torch.tensor([-1.0, 0.5])
r = cfg.run(x)
s = Act.RELU.apply(x)
u = dataclasses.replace(cfg, act=Act.RELU).run(x)
print(cfg, r.tolist(), s.tolist(), u.tolist(), dataclasses.asdict(cfg)["width"])
