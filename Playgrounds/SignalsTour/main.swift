// SignalsTour: a walk through the ReposeSignals operators (being written).
print("SignalsTour: coming with the signals library.")
