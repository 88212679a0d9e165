#include "app/workbench.h"

#include "ui/attention/attentionlab.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/workbench/mainwindow.h"

Labs addLabs(MainWindow *window)
{
    Labs labs;
    labs.attention = new AttentionLab(window);
    labs.selfAttention = new SelfAttentionLab(window);
    window->addLab(labs.attention);
    window->addLab(labs.selfAttention);
    // The explorer can compute with the embeddings of the model the attention lab shows.
    QObject::connect(labs.attention, &AttentionLab::modelChanged, labs.selfAttention, &SelfAttentionLab::setModel);
    window->finishSetup();
    return labs;
}
